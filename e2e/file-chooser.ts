// Picking files through the browser's own file chooser, as a keyboard user opens it (Space on a focused file input).
//
// Why not `const chooser = page.waitForEvent('filechooser'); await page.keyboard.press('Space')`: Playwright turns on
// Chromium's file-chooser interception only when a 'filechooser' listener is added, with a message it does not wait
// for (`updateSubscription`, fire-and-forget), and turns it off again when the one-shot listener of `waitForEvent`
// resolves. A click goes through several round trips (scrolling, hit-target checks) before its input event, so the
// interception is on by then; a key press is one fast message and can reach the page first: the chooser then opens
// uncaught (headless: cancelled), and no event ever comes. That was the flaky first try of e2e/photos.spec.ts.
// Here one listener is added for the whole test, before any key press, and a round trip through the page follows it;
// the interception then stays on, and every chooser opened is queued for the test to take.
import type { FileChooser, Page } from '@playwright/test';

export interface FileChoosers {
  /** The next chooser the page opens (one opened already is taken at once). */
  next(timeoutMs?: number): Promise<FileChooser>;
}

export async function catchFileChoosers(page: Page): Promise<FileChoosers> {
  const opened: FileChooser[] = [];
  const waiting: ((chooser: FileChooser) => void)[] = [];
  page.on('filechooser', (chooser) => {
    const take = waiting.shift();
    if (take) take(chooser);
    else opened.push(chooser);
  });
  // Sent after the subscription on the same connection: once it has answered, Chromium has the interception on.
  await page.evaluate(() => 0);
  return {
    next(timeoutMs = 10_000) {
      const ready = opened.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const take = (chooser: FileChooser) => {
          clearTimeout(timer);
          resolve(chooser);
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(take), 1);
          reject(new Error('no file chooser opened'));
        }, timeoutMs);
        waiting.push(take);
      });
    },
  };
}
