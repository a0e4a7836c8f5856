/**
 * /alerts: the daily update (prices, channels, hour IST) with a preview of the next one, the
 * WhatsApp number (a code sent over WhatsApp verifies it, with consent to receive messages) and
 * price alerts (with the price's latest value beside the threshold). Talks to the JSON
 * endpoints under /api/alerts; the server decides what the plan allows and says why not.
 */
import { useEffect, useMemo, useRef, useState, type SubmitEvent } from 'react';
import { toDisplayDate } from '../lib/dates.ts';
import { DELIVERY_LANGUAGES, LANGUAGE_NAMES, type DeliveryLanguage } from '../lib/delivery/language.ts';
import { planAndUp } from '../lib/delivery/planWords.ts';
import type { CurrentPrice, DailyPreview, DeliveryView, InstrumentChoice } from '../lib/delivery/view.ts';
import { whatsappSpans } from '../lib/delivery/whatsappFormat.ts';
import PricePicker from './PricePicker.tsx';
import RevisionAlerts, { type RevisionAlertInput, type RevisionChoice } from './RevisionAlerts.tsx';
import { CheckField } from './CheckField.tsx';

interface Props {
  readonly initial: DeliveryView;
  /** The prices alerts may watch (and the daily update, unless `dailyChoiceIds` narrows it). */
  readonly choices: readonly InstrumentChoice[];
  /** The prices the plan's daily update may carry (the plan table decides); null: every choice. */
  readonly dailyChoiceIds: readonly string[] | null;
  /** At most this many prices in an update. */
  readonly maxDaily: number;
  /** The next update of the saved prices (the server's, so the page shows it at once). */
  readonly initialPreview: DailyPreview | null;
  /** The latest price of the alert form's first choice. */
  readonly initialPrice: CurrentPrice | null;
  /** The products and producers a revision alert may watch (none: no revision alerts). */
  readonly revisionChoices?: readonly RevisionChoice[];
}

interface ErrorAnswer {
  readonly error?: { readonly message?: string; readonly field?: string };
}

type Status = { readonly text: string; readonly error: boolean } | null;

async function call<T>(method: string, url: string, body?: unknown): Promise<{ ok: true; data: T } | { ok: false; message: string; field: string | null }> {
  try {
    const response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { Accept: 'application/json' } : { 'Content-Type': 'application/json', Accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json().catch(() => ({}))) as T & ErrorAnswer;
    if (response.ok) return { ok: true, data: answer };
    return { ok: false, message: answer.error?.message ?? `The request failed (HTTP ${response.status}).`, field: answer.error?.field ?? null };
  } catch {
    return { ok: false, message: 'The network is not answering. Try again.', field: null };
  }
}

/** The skipped-update notice: a warning's colours, self-contained (the page's styles are not this island's). */
const MISSED_STYLE = { margin: '0 0 0.75rem', padding: '0.6rem 0.75rem', borderLeft: '3px solid #b26a00', background: '#fff6e5', color: '#4a3200' } as const;

const hourLabel = (hour: number): string => `${String(hour).padStart(2, '0')}:00 IST`;

/** How long the preview waits for the choice to settle before it asks the server. */
const PREVIEW_DELAY_MS = 300;

/**
 * The answer of a GET that follows a changing choice: the newest request's only (an older one
 * answering late is dropped). The first URL's answer came with the page (`initial`).
 */
function useLatest<T>(url: string | null, initial: T | null, delayMs = 0): { data: T | null; loading: boolean; failed: boolean } {
  const [state, setState] = useState<{ data: T | null; loading: boolean; failed: boolean }>({ data: initial, loading: false, failed: false });
  const first = useRef<string | null>(initial === null ? null : url);
  useEffect(() => {
    if (url !== null && url === first.current) return;
    first.current = null;
    if (url === null) return setState({ data: null, loading: false, failed: false });
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    const timer = window.setTimeout(() => {
      void call<T>('GET', url).then((result) => {
        if (live) setState(result.ok ? { data: result.data, loading: false, failed: false } : { data: null, loading: false, failed: true });
      });
    }, delayMs);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [url, delayMs]);
  return state;
}

/** "tomorrow, 09:00 IST" or "today, 18:00 IST", or the date when further. */
function whenLabel(preview: DailyPreview): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
  const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const day = preview.day === today ? 'today' : preview.day === tomorrow ? 'tomorrow' : toDisplayDate(preview.day);
  return `${day} (${toDisplayDate(preview.day)}), ${hourLabel(preview.hour)}`;
}

function Choices({ choices }: { readonly choices: readonly InstrumentChoice[] }) {
  const groups = useMemo(() => {
    const map = new Map<string, InstrumentChoice[]>();
    for (const choice of choices) map.set(choice.group, [...(map.get(choice.group) ?? []), choice]);
    return [...map.entries()];
  }, [choices]);
  return groups.map(([group, list]) => (
    <optgroup key={group} label={group}>
      {list.map((c) => (
        <option key={c.id} value={c.id}>
          {c.label}
        </option>
      ))}
    </optgroup>
  ));
}

function Say({ status, testId }: { readonly status: Status; readonly testId: string }) {
  return (
    <p className={status?.error ? 'form-error' : 'muted'} role="status" data-testid={testId}>
      {status?.text ?? ''}
    </p>
  );
}

export default function DeliverySettings({ initial, choices, dailyChoiceIds, maxDaily, initialPreview, initialPrice, revisionChoices = [] }: Props) {
  const dailyChoices = useMemo(() => (dailyChoiceIds === null ? choices : choices.filter((c) => dailyChoiceIds.includes(c.id))), [choices, dailyChoiceIds]);
  const [view, setView] = useState<DeliveryView>(initial);
  const [series, setSeries] = useState<string[]>([...initial.settings.series]);
  const [email, setEmail] = useState(initial.settings.email);
  const [whatsapp, setWhatsapp] = useState(initial.settings.whatsapp);
  const [hour, setHour] = useState(initial.settings.hour);
  const [language, setLanguage] = useState<DeliveryLanguage>(initial.settings.language);
  const [digest, setDigest] = useState(initial.settings.forecastDigest);
  const [digestStatus, setDigestStatus] = useState<Status>(null);
  const [number, setNumber] = useState('');
  const [consent, setConsent] = useState(false);
  const [code, setCode] = useState('');
  const [alertSeries, setAlertSeries] = useState(choices[0]?.id ?? '');
  const [kind, setKind] = useState<'above' | 'below' | 'move'>('above');
  const [value, setValue] = useState('');
  const [alertEmail, setAlertEmail] = useState(true);
  const [alertWhatsapp, setAlertWhatsapp] = useState(false);
  const [settingsStatus, setSettingsStatus] = useState<Status>(null);
  const [numberStatus, setNumberStatus] = useState<Status>(null);
  const [alertStatus, setAlertStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);
  // `data-ready` says the handlers are attached: the server's HTML has the same forms, which a click before hydration would submit natively.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const unit = choices.find((c) => c.id === alertSeries)?.unit ?? '';
  const priceAlerts = view.alerts.filter((a) => a.kind !== 'revision');
  const preview = useLatest<DailyPreview>(`/api/alerts/preview?series=${series.map(encodeURIComponent).join(',')}&hour=${hour}&language=${language}`, initialPreview, PREVIEW_DELAY_MS);
  const current = useLatest<CurrentPrice>(view.rights.alerts && alertSeries ? `/api/alerts/price?series=${encodeURIComponent(alertSeries)}` : null, initialPrice);

  function adopt(next: DeliveryView) {
    setView(next);
    setSeries([...next.settings.series]);
    setEmail(next.settings.email);
    setWhatsapp(next.settings.whatsapp);
    setHour(next.settings.hour);
    setLanguage(next.settings.language);
    setDigest(next.settings.forecastDigest);
  }

  /** The digest alone: the daily update's saved choices go with it unchanged (unsaved edits above stay unsaved). */
  async function saveDigest(event: SubmitEvent) {
    event.preventDefault();
    setBusy(true);
    const saved = view.settings;
    const result = await call<DeliveryView>('PUT', '/api/alerts/settings', { series: saved.series, email: saved.email, whatsapp: saved.whatsapp, hour: saved.hour, language: saved.language, forecastDigest: digest });
    setBusy(false);
    if (!result.ok) return setDigestStatus({ text: result.message, error: true });
    setView(result.data);
    setDigest(result.data.settings.forecastDigest);
    setDigestStatus({ text: result.data.settings.forecastDigest ? 'Weekly forecast digest on.' : 'Weekly forecast digest off.', error: false });
  }

  async function saveSettings(event: SubmitEvent) {
    event.preventDefault();
    setBusy(true);
    setSettingsStatus({ text: 'Saving…', error: false });
    const result = await call<DeliveryView>('PUT', '/api/alerts/settings', { series, email, whatsapp, hour, language });
    setBusy(false);
    if (!result.ok) return setSettingsStatus({ text: result.message, error: true });
    adopt(result.data);
    setSettingsStatus({ text: 'Daily update saved.', error: false });
  }

  async function sendCode(event: SubmitEvent) {
    event.preventDefault();
    setBusy(true);
    setNumberStatus({ text: 'Sending a code…', error: false });
    const result = await call<{ pending: string }>('POST', '/api/alerts/whatsapp', { number, consent });
    setBusy(false);
    if (!result.ok) return setNumberStatus({ text: result.message, error: true });
    setView({ ...view, whatsapp: { ...view.whatsapp, pending: result.data.pending } });
    setNumberStatus({ text: `We sent a 6-digit code to ${result.data.pending} on WhatsApp.`, error: false });
  }

  async function verify(event: SubmitEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await call<DeliveryView>('POST', '/api/alerts/whatsapp/verify', { code });
    setBusy(false);
    if (!result.ok) return setNumberStatus({ text: result.message, error: true });
    adopt(result.data);
    setCode('');
    setNumberStatus({ text: `WhatsApp number ${result.data.whatsapp.number ?? ''} verified.`, error: false });
  }

  async function addAlert(event: SubmitEvent) {
    event.preventDefault();
    const channels = [...(alertEmail ? ['email'] : []), ...(alertWhatsapp ? ['whatsapp'] : [])];
    setBusy(true);
    const result = await call<{ alert: DeliveryView['alerts'][number] }>('POST', '/api/alerts', { series: alertSeries, kind, value: Number(value), channels });
    setBusy(false);
    if (!result.ok) return setAlertStatus({ text: result.message, error: true });
    setView({ ...view, alerts: [...view.alerts, result.data.alert] });
    setValue('');
    setAlertStatus({ text: 'Alert added.', error: false });
  }

  async function addRevisionAlert(input: RevisionAlertInput): Promise<string | null> {
    setBusy(true);
    const result = await call<{ alert: DeliveryView['alerts'][number] }>('POST', '/api/alerts/revisions', input);
    setBusy(false);
    if (!result.ok) return result.message;
    setView((v) => ({ ...v, alerts: [...v.alerts, result.data.alert] }));
    return null;
  }

  /** Deletes an alert; `say` is the status line of the form it was listed under. */
  async function removeAlert(id: string, say: (status: Status) => void = setAlertStatus) {
    setBusy(true);
    const result = await call<{ deleted: boolean }>('DELETE', `/api/alerts/${encodeURIComponent(id)}`);
    setBusy(false);
    if (!result.ok) return say({ text: result.message, error: true });
    setView((v) => ({ ...v, alerts: v.alerts.filter((a) => a.id !== id) }));
    say({ text: 'Alert deleted.', error: false });
  }

  return (
    <div className="delivery" data-ready={hydrated ? 'true' : 'false'} data-testid="delivery">
      <section className="card" aria-labelledby="whatsapp-heading">
        <h2 id="whatsapp-heading">WhatsApp number</h2>
        {view.whatsapp.number ? (
          <p data-testid="whatsapp-number">
            Verified: <strong>{view.whatsapp.number}</strong>
            {view.whatsapp.optedIn ? '' : ' (you sent STOP: send START on WhatsApp to get messages again)'}
          </p>
        ) : (
          <p className="muted">Verify a number to get the daily update and alerts on WhatsApp{view.rights.priceBot ? ', and to ask the price bot' : ''}.</p>
        )}
        <form className="form-stack" onSubmit={sendCode}>
          <label className="field">
            <span>{view.whatsapp.number ? 'Change to another number' : 'Your WhatsApp number'}</span>
            <input type="tel" name="number" autoComplete="tel" value={number} onChange={(e) => setNumber(e.target.value)} placeholder="+91 98200 12345" required />
          </label>
          <CheckField name="consent" checked={consent} onChange={setConsent}>
            I agree to receive PolyIndex price messages on WhatsApp. I can send STOP at any time.
          </CheckField>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Send code
          </button>
        </form>
        {view.whatsapp.pending && (
          <form className="form-stack" onSubmit={verify}>
            <label className="field">
              <span>Code sent to {view.whatsapp.pending}</span>
              <input name="code" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} maxLength={6} required />
            </label>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Verify
            </button>
          </form>
        )}
        <Say status={numberStatus} testId="whatsapp-status" />
      </section>

      <section className="card" aria-labelledby="daily-heading">
        <h2 id="daily-heading">Daily update</h2>
        {view.missed && (
          <p role="status" data-testid="missed-update" style={MISSED_STYLE}>
            {view.missed.message}
          </p>
        )}
        <form className="form-stack" onSubmit={saveSettings}>
          <div className="field">
            <PricePicker choices={dailyChoices} selected={series} onChange={setSeries} max={maxDaily} label="Prices in the update" />
          </div>
          <label className="field">
            <span>Send it at</span>
            <select name="hour" value={hour} onChange={(e) => setHour(Number(e.target.value))}>
              {Array.from({ length: 24 }, (_, h) => (
                <option key={h} value={h}>
                  {hourLabel(h)}
                </option>
              ))}
            </select>
          </label>
          <p className="muted">
            It goes from {hourLabel(hour)} until {hourLabel((hour + view.windowHours) % 24)}; a run after that skips the day rather than send it late.
          </p>
          <label className="field">
            <span>Language of the update and alerts</span>
            <select name="language" value={language} onChange={(e) => setLanguage(e.target.value as DeliveryLanguage)}>
              {DELIVERY_LANGUAGES.map((code) => (
                <option key={code} value={code} lang={code}>
                  {LANGUAGE_NAMES[code]}
                </option>
              ))}
            </select>
          </label>
          <CheckField name="email" checked={email} onChange={setEmail}>
            By e-mail
          </CheckField>
          <CheckField name="whatsapp" checked={whatsapp} onChange={setWhatsapp} disabled={!view.whatsapp.number}>
            On WhatsApp{view.whatsapp.number ? '' : ' (verify a number first)'}
          </CheckField>
          <figure className="preview" data-testid="daily-preview" aria-busy={preview.loading}>
            <figcaption>{preview.data ? `Preview of the next update: ${whenLabel(preview.data)}` : 'Preview of the next update'}</figcaption>
            {preview.failed ? (
              <p className="form-error">The preview could not be made just now; your choice is not lost.</p>
            ) : preview.data?.message ? (
              <p className="preview-message" data-testid="preview-message">
                {whatsappSpans(preview.data.message).map((span, i) => (span.bold ? <strong key={i}>{span.text}</strong> : span.text))}
              </p>
            ) : (
              <p className="muted">{preview.loading ? 'Making the preview…' : 'Choose prices above to see the message.'}</p>
            )}
          </figure>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Save daily update
          </button>
          <Say status={settingsStatus} testId="settings-status" />
        </form>
      </section>

      <section className="card" aria-labelledby="digest-heading" data-testid="forecast-digest">
        <h2 id="digest-heading">Weekly forecast digest</h2>
        <form className="form-stack" onSubmit={saveDigest}>
          <p className="muted">
            Every Monday from {hourLabel(view.settings.hour)} (the hour of your daily update), for the prices you follow: the desk&apos;s open calls beside the statistical baseline, the last scored calls and the
            12-month record. Plans with the outlook pages get the open calls; every plan gets the record.
          </p>
          <CheckField name="forecastDigest" checked={digest} onChange={setDigest}>
            Send me the weekly forecast digest
          </CheckField>
          {!view.settings.email && !view.settings.whatsapp && <p className="muted">It goes by the daily update&apos;s channels: turn on e-mail or WhatsApp above and save.</p>}
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Save digest
          </button>
          <Say status={digestStatus} testId="digest-status" />
        </form>
      </section>

      <section className="card" aria-labelledby="alerts-heading">
        <h2 id="alerts-heading">Price alerts</h2>
        {view.rights.alerts ? (
          <>
            <form className="form-stack" onSubmit={addAlert}>
              <label className="field">
                <span>Price</span>
                <select name="alertSeries" value={alertSeries} onChange={(e) => setAlertSeries(e.target.value)}>
                  <Choices choices={choices} />
                </select>
              </label>
              <label className="field">
                <span>When it</span>
                <select name="kind" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
                  <option value="above">reaches or passes</option>
                  <option value="below">falls to or below</option>
                  <option value="move">moves in a day by at least (%)</option>
                </select>
              </label>
              <div className="threshold">
                <label className="field">
                  <span>Value ({kind === 'move' ? '%' : unit})</span>
                  <input name="value" inputMode="decimal" value={value} onChange={(e) => setValue(e.target.value)} required aria-describedby="current-price" />
                </label>
                <p className="current-price" id="current-price" data-testid="current-price" aria-live="polite">
                  {current.data ? (
                    <>
                      Now <strong>{current.data.text}</strong>
                      {current.data.latest && <span className="muted"> ({toDisplayDate(current.data.latest.date)})</span>}
                    </>
                  ) : current.failed ? (
                    'The current price could not be read just now.'
                  ) : (
                    'Reading the current price…'
                  )}
                </p>
              </div>
              <CheckField name="alertEmail" checked={alertEmail} onChange={setAlertEmail}>
                Alert me by e-mail
              </CheckField>
              <CheckField name="alertWhatsapp" checked={alertWhatsapp} onChange={setAlertWhatsapp} disabled={!view.whatsapp.number}>
                Alert me on WhatsApp
              </CheckField>
              <button type="submit" className="btn btn-primary" disabled={busy}>
                Add alert
              </button>
              <Say status={alertStatus} testId="alert-status" />
            </form>
            {priceAlerts.length > 0 && (
              <ul className="alert-list" data-testid="alert-list">
                {priceAlerts.map((a) => (
                  <li key={a.id} data-alert={a.id}>
                    {a.label}: {a.kind === 'move' ? `moves ${a.valueText} in a day` : `${a.kind === 'above' ? 'at or above' : 'at or below'} ${a.valueText}`} ({a.channels.join(', ')}){' '}
                    <button type="button" className="btn btn-ghost" onClick={() => void removeAlert(a.id)} disabled={busy}>
                      Delete
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </>
        ) : (
          <p data-testid="alerts-upgrade">
            Price alerts come with {planAndUp('alerts')}. <a href="/pricing">See the plans</a>
          </p>
        )}
      </section>
      {view.rights.alerts && revisionChoices.length > 0 && (
        <RevisionAlerts
          choices={revisionChoices}
          alerts={view.alerts.filter((a) => a.kind === 'revision')}
          whatsappVerified={view.whatsapp.number !== null}
          busy={busy}
          onAdd={addRevisionAlert}
          onDelete={(id, say) => void removeAlert(id, say)}
        />
      )}
    </div>
  );
}
