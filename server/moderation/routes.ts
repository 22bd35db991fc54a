// Reporting a review: GET/POST /reviews/{id}/report, the public report form (server-rendered, no JavaScript, no
// cookies). A post must carry the signed token of a form this service showed for this review (form-token.ts);
// reports are limited per client address and per review. The operator's queue and decisions are in admin.ts.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { readFields } from '../http/body.js';
import { clientKey } from '../http/client-key.js';
import { RateLimiter } from '../http/rate-limit.js';
import { normalizeLanguage, type Language } from '../languages.js';
import { sendHtml } from '../pages/html.js';
import { STYLE_HASH } from '../pages/components.js';
import type { Services } from '../services.js';
import { mainLanguage } from '../webshops/rules.js';
import { findWebshop } from '../webshops/service.js';
import { signFormToken, verifyFormToken } from './form-token.js';
import { publicPhotos } from '../reviews/photos.js';
import { APPEAL_LIMITS, readAppealText, readReportForm, reportProblems, type ReportFormValues } from './schema.js';
import { reviewToReport, submitAppeal, submitReport } from './service.js';
import { appealDigest, isAppealTokenShape } from './appeal-token.js';
import { APPEAL_STRINGS } from './appeal-strings.js';
import { REPORT_STRINGS } from './strings.js';
import { appealPage, reportMessagePage, reportPage, type AppealFormData, type ReportFrame } from './views.js';
import type { ModerationDeps } from './service.js';

const FORM_LIMIT = 16 * 1024;
/** Room for the complaint's 5,000 characters, each up to 4 bytes and form-encoded. */
const APPEAL_FORM_LIMIT = 64 * 1024;
const HOUR_MS = 3_600_000;
/** A person reports a few reviews, not dozens: per client address and hour. */
export const REPORTS_PER_ADDRESS_PER_HOUR = 10;
/** A review can draw many honest reports, but past this an hour the queue learns nothing new from more. */
export const REPORTS_PER_REVIEW_PER_HOUR = 20;

export function registerModerationRoutes(
  router: Router,
  services: ModerationDeps & Pick<Services, 'config' | 'webshops'>,
): void {
  const { moderation, config } = services;
  const byAddress = new RateLimiter(REPORTS_PER_ADDRESS_PER_HOUR, () => services.now().getTime(), 100_000, HOUR_MS);
  const byReview = new RateLimiter(REPORTS_PER_REVIEW_PER_HOUR, () => services.now().getTime(), 100_000, HOUR_MS);

  // The pages run no script; they use the shopper pages' stylesheet. Nothing here is to be cached or indexed.
  const send = (ctx: Context, status: number, html: string) =>
    sendHtml(ctx, status, html, { secret: true, styleHash: STYLE_HASH, scriptHash: "'none'" });

  /** `?lang=`, else the browser's languages, else the shop's main language (as the policy page). */
  function languageOf(ctx: Context, fallback: Language): Language {
    const asked = typeof ctx.query.lang === 'string' ? normalizeLanguage(ctx.query.lang) : undefined;
    return (
      asked ??
      ctx
        .acceptsLanguages()
        .map(normalizeLanguage)
        .find((l) => l !== undefined) ??
      fallback
    );
  }
  const frameFor = (lang: Language): ReportFrame => ({ t: REPORT_STRINGS[lang], lang, brandName: config.brandName });

  async function reportRoute(ctx: Context): Promise<void> {
    const reported = await reviewToReport(services, ctx.params.id ?? '');
    if (!reported) {
      const frame = frameFor(languageOf(ctx, 'en'));
      return send(ctx, 404, reportMessagePage(frame, frame.t.goneTitle, frame.t.goneBody));
    }
    const { review, shop } = reported;
    const frame = frameFor(languageOf(ctx, mainLanguage(shop)));
    const key = await moderation.formKey();
    // Ids from the review, the alternative texts as the pages show them (the writer's, or "Photo 1 of 2 by …").
    const shownPhotos = (review.photos ?? [])
      .filter((p) => p.state === 'shown')
      .map((p, i) => ({ id: p.id, alt: publicPhotos(review, '')[i]?.alt ?? '' }));
    const action = `/reviews/${review.id}/report${typeof ctx.query.lang === 'string' ? `?lang=${frame.lang}` : ''}`;
    const form = (values: ReportFormValues, problems: ReturnType<typeof reportProblems>, notice = '') =>
      reportPage(frame, {
        review: {
          name: review.name,
          rating: review.rating,
          comment: review.comment,
          shopName: shop.name,
          photos: shownPhotos.map((p) => ({ id: p.id, alt: p.alt })),
        },
        values,
        problems,
        notice,
        token: signFormToken(key, review.id, services.now()),
        action,
      });

    if (ctx.method === 'GET') {
      // A photo's "Report" link names it: `?photo={id}`.
      const asked = typeof ctx.query.photo === 'string' ? ctx.query.photo : '';
      const photo = shownPhotos.some((p) => p.id === asked) ? asked : '';
      return send(ctx, 200, form({ ground: null, text: '', email: '', photo }, []));
    }

    const tooMany = () => {
      ctx.set('Retry-After', String(Math.ceil(HOUR_MS / 1000)));
      send(ctx, 429, reportMessagePage(frame, frame.t.tooManyTitle, frame.t.tooManyBody));
    };
    if (byAddress.hit(`report:${clientKey(ctx.ip)}`)) return tooMany();
    const fields = await readFields(ctx, FORM_LIMIT);
    const values = readReportForm(fields);
    if (!verifyFormToken(key, review.id, fields.token, services.now()))
      return send(ctx, 400, form(values, [], frame.t.formExpired));
    const problems = reportProblems(
      values,
      shownPhotos.map((p) => p.id),
    );
    if (problems.length) return send(ctx, 400, form(values, problems));
    if (byReview.hit(`review:${review.id}`)) return tooMany();
    await submitReport(services, review, values, undefined, undefined, frame.lang);
    send(ctx, 200, reportMessagePage(frame, frame.t.thanksTitle, frame.t.thanksBody));
  }

  router.get('/reviews/:id/report', reportRoute);
  router.post('/reviews/:id/report', reportRoute);

  /**
   * The complaint page of a decision's e-mail: the token is the credential (stored as its digest); GET only shows
   * the decision and the form, a POST with text files the one complaint this person may make about it.
   */
  async function appealRoute(ctx: Context): Promise<void> {
    const raw = ctx.params.token ?? '';
    const token = isAppealTokenShape(raw) ? await moderation.appealToken(appealDigest(raw), services.now()) : null;
    const contested = token ? await moderation.get(token.report) : null;
    if (!token || !contested?.decision) {
      const frame = frameFor(languageOf(ctx, 'en'));
      const a = APPEAL_STRINGS[frame.lang];
      return send(ctx, 404, reportMessagePage(frame, a.goneTitle, a.goneBody));
    }
    const frame = frameFor(typeof ctx.query.lang === 'string' ? languageOf(ctx, token.language) : token.language);
    const a = APPEAL_STRINGS[frame.lang];
    if (await moderation.hasAppealed(token.report, token.role)) {
      return send(ctx, ctx.method === 'GET' ? 200 : 409, reportMessagePage(frame, a.doneTitle, a.doneBody));
    }
    const shop = await findWebshop(services, token.shopId);
    const was = contested.decision.action;
    const outcome = was === 'remove' ? 'removed' : was === 'redact' ? 'redacted' : 'kept';
    const ground = contested.decision.ground;
    const form = (text: string, problem: AppealFormData['problem']) =>
      appealPage(frame, a, {
        decision: a.decision[outcome](shop?.name ?? ''),
        ground: ground && outcome !== 'kept' ? a.ground(frame.t.grounds[ground]) : '',
        text,
        problem,
        action: `/appeal/${raw}${typeof ctx.query.lang === 'string' ? `?lang=${frame.lang}` : ''}`,
      });
    if (ctx.method === 'GET') return send(ctx, 200, form('', null));

    if (byAddress.hit(`appeal:${clientKey(ctx.ip)}`)) {
      ctx.set('Retry-After', String(Math.ceil(HOUR_MS / 1000)));
      return send(ctx, 429, reportMessagePage(frame, frame.t.tooManyTitle, frame.t.tooManyBody));
    }
    const text = readAppealText(await readFields(ctx, APPEAL_FORM_LIMIT));
    if (!text) return send(ctx, 400, form(text, 'required'));
    if (text.length > APPEAL_LIMITS.text) return send(ctx, 400, form(text, 'too_long'));
    const complaint = await submitAppeal(services, token, text);
    if (!complaint) return send(ctx, 409, reportMessagePage(frame, a.doneTitle, a.doneBody));
    send(ctx, 200, reportMessagePage(frame, a.thanksTitle, a.thanksBody));
  }

  router.get('/appeal/:token', appealRoute);
  router.post('/appeal/:token', appealRoute);
}
