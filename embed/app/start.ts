// What the app works out for itself as it starts, from the page: the settings (page globals over the dashboard
// configuration over the defaults, each invalid global warned about once) and the language.
import type { EmbedContext } from '../shared/context.js';
import { detectLanguage, type PageFacts } from '../shared/language.js';
import { mergeSettings, readGlobals } from '../shared/settings.js';

export function settle(context: EmbedContext, scope: object, page: PageFacts): void {
  // biome-ignore lint/suspicious/noAssignInExpressions: the app's byte budget; one expression fills the context and names the value
  const settings = (context.settings = mergeSettings(context.shop.settings, readGlobals(scope, context.brand)));
  context.lang = detectLanguage(settings.language, page, context.shop.language);
}
