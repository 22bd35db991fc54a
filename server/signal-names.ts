// The names of the fake-review signals (issue 21), shared plumbing: the configuration reads which are on (SIGNALS,
// config.ts) and moderation records which was raised, neither of which should depend on the signals feature that
// computes them (server/signals/rules.ts re-exports the name for its own modules).
const SIGNAL_NAMES = ['insider', 'burst', 'duplicate_text', 'shared_network'] as const;
export type SignalName = (typeof SIGNAL_NAMES)[number];
