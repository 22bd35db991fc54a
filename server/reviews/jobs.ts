// The reviews' periodic clean-ups beside their stores (FerretDB has no TTL indexes): pop-up tokens past their day
// (tokens.ts), and reviews nobody confirmed within CONFIRMATION_DAYS (a sweep of the small queue of waiting reviews
// in confirmations.ts, not of the reviews). The job names are those of earlier versions (Agenda keeps them stored).
import type { Services } from '../services.js';
import { expireUnconfirmed } from './publication.js';

const HOUR_MS = 3_600_000;

export function defineReviewCleanupJobs(
  services: Pick<Services, 'confirmations' | 'consents' | 'log' | 'now' | 'popupTokens' | 'reviews' | 'scheduler'>,
): void {
  services.scheduler.define(
    'embed.tokens.cleanup',
    async () => void (await services.popupTokens.deleteExpired()),
    HOUR_MS,
  );
  services.scheduler.define(
    'embed.confirmations.expire',
    async () => void (await expireUnconfirmed(services)),
    HOUR_MS,
  );
}
