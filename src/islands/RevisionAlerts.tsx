/**
 * /alerts, the producer revision alerts (part of the DeliverySettings island): "tell me when a
 * producer revises its PP list prices", for a product and any producer or one, by e-mail and/or
 * WhatsApp, and the list of these alerts. The island owns the calls; this part owns the form.
 */
import { useState, type SubmitEvent } from 'react';
import type { AlertView } from '../lib/delivery/view.ts';
import { CheckField } from './CheckField.tsx';

/** A product producers list, and those producers (the page passes them from the producer catalog). */
export interface RevisionChoice {
  readonly product: string;
  readonly producers: readonly { readonly id: string; readonly name: string }[];
}

export interface RevisionAlertInput {
  readonly product: string;
  readonly producer: string | null;
  readonly channels: readonly ('email' | 'whatsapp')[];
}

type Status = { readonly text: string; readonly error: boolean } | null;

interface Props {
  readonly choices: readonly RevisionChoice[];
  readonly alerts: readonly AlertView[];
  readonly whatsappVerified: boolean;
  readonly busy: boolean;
  /** Adds the alert; the error's message, or null when it was added. */
  readonly onAdd: (input: RevisionAlertInput) => Promise<string | null>;
  /** Deletes the alert and says how it went on this form's status line. */
  readonly onDelete: (id: string, say: (status: Status) => void) => void;
}

export default function RevisionAlerts({ choices, alerts, whatsappVerified, busy, onAdd, onDelete }: Props) {
  const [product, setProduct] = useState(choices[0]?.product ?? '');
  const [producer, setProducer] = useState('');
  const [email, setEmail] = useState(true);
  const [whatsapp, setWhatsapp] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const producers = choices.find((c) => c.product === product)?.producers ?? [];

  async function add(event: SubmitEvent) {
    event.preventDefault();
    const channels = [...(email ? (['email'] as const) : []), ...(whatsapp ? (['whatsapp'] as const) : [])];
    const error = await onAdd({ product, producer: producer || null, channels });
    setStatus(error ? { text: error, error: true } : { text: 'Revision alert added.', error: false });
  }

  return (
    <section className="card" aria-labelledby="revision-alerts-heading" data-testid="revision-alerts">
      <h2 id="revision-alerts-heading">Producer revision alerts</h2>
      <p className="muted">A message when a producer revises its list prices (ex-works or ex-depot, ₹/kg), with the change against its previous list.</p>
      <form className="form-stack" onSubmit={add}>
        <label className="field">
          <span>Product</span>
          <select
            name="revisionProduct"
            value={product}
            onChange={(e) => {
              setProduct(e.target.value);
              setProducer('');
            }}
          >
            {choices.map((c) => (
              <option key={c.product} value={c.product}>
                {c.product}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Producer</span>
          <select name="revisionProducer" value={producer} onChange={(e) => setProducer(e.target.value)}>
            <option value="">Any producer</option>
            {producers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <CheckField name="revisionEmail" checked={email} onChange={setEmail}>
          Revision alerts by e-mail
        </CheckField>
        <CheckField name="revisionWhatsapp" checked={whatsapp} onChange={setWhatsapp} disabled={!whatsappVerified}>
          Revision alerts on WhatsApp
        </CheckField>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Add revision alert
        </button>
        <p className={status?.error ? 'form-error' : 'muted'} role="status" data-testid="revision-alert-status">
          {status?.text ?? ''}
        </p>
      </form>
      {alerts.length > 0 && (
        <ul className="alert-list" data-testid="revision-alert-list">
          {alerts.map((a) => (
            <li key={a.id} data-alert={a.id}>
              {a.label} ({a.channels.join(', ')}){' '}
              <button type="button" className="btn btn-ghost" onClick={() => onDelete(a.id, setStatus)} disabled={busy}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
