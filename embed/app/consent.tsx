// The Privacy First consent pop-up on thank-you pages. Nothing from the order-data element leaves the page before
// the shopper chooses; the one exception is a signed element, whose signature only the server can check
// (`order/verify` stores and logs nothing). Both choices record consent; closing the dialog records nothing.
import { useState } from 'preact/hooks';
import { api, ctx, S, t } from './env.js';
import { ReviewForm } from './form.js';
import { Title } from './ui.js';
import { parseOrderData, type ParsedOrder } from '../shared/order.js';
import { isRemembered, orderKey, pageStores, remember } from '../shared/consent-memory.js';

const memory = () => ({ stores: pageStores(window), name: `_${ctx.brand}_consent` });

function rememberChoice(parsed: ParsedOrder): void {
  const { stores, name } = memory();
  remember(stores, name, orderKey(parsed.shopId, parsed.orderNumber));
}

/** The order on this page that still needs the dialog, or undefined (none, not ours, done, or a bad signature). */
export async function pendingOrder(element: Element): Promise<ParsedOrder | undefined> {
  const parsed = parseOrderData(element.textContent ?? '');
  if (!parsed || parsed.shopId !== ctx.id) {
    console.warn(`${ctx.brandName}: the order data on this page cannot be used`);
    return undefined;
  }
  // The server would refuse the choice: asking for it would only waste the shopper's time.
  if (!parsed.signature && ctx.shop.require_signed_order_data) return undefined;
  const { stores, name } = memory();
  if (isRemembered(stores, name, orderKey(parsed.shopId, parsed.orderNumber))) return undefined;
  if (parsed.signature) {
    const answer = await api<{ valid?: boolean; recorded?: boolean }>('order/verify', {
      order: parsed.order,
      signature: parsed.signature,
    });
    if (answer.status !== 200 || answer.body.valid !== true) return undefined;
    if (answer.body.recorded) {
      rememberChoice(parsed);
      return undefined;
    }
  }
  return parsed;
}

type Step = 'ask' | 'busy' | 'write' | 'later' | 'already' | 'failed';

export function ConsentFlow({ parsed, onClose }: { parsed: ParsedOrder; onClose: () => void }) {
  const [step, setStep] = useState<Step>('ask');
  const [token, setToken] = useState('');

  const choose = async (choice: 'write_now' | 'ask_later') => {
    if (step === 'busy') return;
    setStep('busy');
    const answer = await api<{ reviewToken?: string }>('consent', {
      order: parsed.order,
      signature: parsed.signature,
      choice,
      language: ctx.lang,
      textVersion: `${ctx.lang}.${S.consentVersion}`,
    });
    if (answer.status === 201) {
      rememberChoice(parsed);
      setToken(answer.body.reviewToken ?? '');
      setStep(choice === 'write_now' && answer.body.reviewToken ? 'write' : 'later');
    } else if (answer.status === 409) {
      rememberChoice(parsed);
      setStep('already');
    } else if (answer.status === 403) {
      onClose();
    } else {
      setStep('failed');
    }
  };

  if (step === 'write') return <ReviewForm mode="write" token={token} order={parsed.order} />;
  if (step === 'later' || step === 'already') {
    return (
      <>
        <Title>{S.consentTitle}</Title>
        <p role="status" class="done" tabIndex={-1} ref={(el) => el?.focus()}>
          {S[step === 'later' ? 'askLaterDone' : 'already']}
        </p>
        <button type="button" class="btn" onClick={onClose}>
          {S.close}
        </button>
      </>
    );
  }
  const busy = step === 'busy';
  return (
    <>
      <Title>{S.consentTitle}</Title>
      <p>{t('consentText')}</p>
      <p class="mu small">{t('consentPrivacy')}</p>
      {step === 'failed' && (
        <p role="alert" class="err">
          {S.error}
        </p>
      )}
      <div class="actions">
        <button type="button" class="btn" data-autofocus aria-disabled={busy} onClick={() => choose('write_now')}>
          {S.writeNow}
        </button>
        <button type="button" class="btn2" aria-disabled={busy} onClick={() => choose('ask_later')}>
          {S.askLater}
        </button>
      </div>
    </>
  );
}
