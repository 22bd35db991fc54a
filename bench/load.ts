// Thin wrapper over autocannon's programmatic API: run one target and return the figures we report.
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

interface LoadTarget {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  /** Builds each request's path (and body): lets a run vary offsets, languages, e-mails. */
  request?: (n: number) => { path: string; body?: string; headers?: Record<string, string> };
}

export async function load(target: LoadTarget, seconds: number, connections = 50): Promise<LoadResult> {
  let n = 0;
  const result = await autocannon({
    url: target.url,
    connections,
    duration: seconds,
    method: target.method ?? 'GET',
    requests: target.request
      ? [
          {
            setupRequest: (req: Record<string, unknown>) => {
              const r = target.request!(n++);
              return { ...req, path: r.path, body: r.body, headers: { ...(req.headers as object), ...r.headers } };
            },
          },
        ]
      : undefined,
  } as autocannon.Options);
  return {
    name: target.name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
