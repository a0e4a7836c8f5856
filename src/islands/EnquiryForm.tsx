import { useEffect, useId, useState, type SubmitEvent } from 'react';
import { HONEYPOT_FIELD, type EnquiryFormSpec } from '../lib/enquiryForms.ts';

interface Props {
  readonly form: EnquiryFormSpec;
  /** Pre-filled values, e.g. the signed-in visitor's e-mail. */
  readonly initial?: Readonly<Record<string, string>>;
}

type State =
  | { readonly kind: 'idle' }
  | { readonly kind: 'sending' }
  | { readonly kind: 'sent' }
  | { readonly kind: 'error'; readonly message: string; readonly field?: string | undefined };

/** An enquiry form posting JSON to /api/enquiries/{kind}; the server's field errors show at the field. */
export default function EnquiryForm({ form, initial = {} }: Props) {
  const id = useId();
  const [state, setState] = useState<State>({ kind: 'idle' });
  // The server-rendered form has no handler until it hydrates: a click before then would submit
  // natively (a GET that reloads the page and drops what was typed), so the button waits.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const element = event.currentTarget;
    const data: Record<string, string | number> = {};
    for (const [name, value] of new FormData(element)) {
      if (typeof value !== 'string') continue;
      const field = form.fields.find((f) => f.name === name);
      data[name] = field?.type === 'number' && value.trim() !== '' ? Number(value) : value;
    }
    setState({ kind: 'sending' });
    try {
      const response = await fetch(`/api/enquiries/${form.kind}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(data),
      });
      if (response.ok) {
        element.reset();
        setState({ kind: 'sent' });
        return;
      }
      const body = (await response.json().catch(() => null)) as { error?: { message?: string; field?: string } } | null;
      setState({ kind: 'error', message: body?.error?.message ?? 'Something went wrong. Please try again.', field: body?.error?.field });
    } catch {
      setState({ kind: 'error', message: 'The network is not answering. Please try again.' });
    }
  }

  const fieldId = (name: string) => `${id}-${name}`;
  const errorFor = (name: string) => (state.kind === 'error' && state.field === name ? state.message : null);

  return (
    <form className="card enquiry-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`} data-testid={`enquiry-${form.kind}`}>
      <h2 id={`${id}-title`}>{form.title}</h2>
      <p className="muted">{form.intro}</p>
      {form.fields.map((field) => {
        const error = errorFor(field.name);
        const common = {
          id: fieldId(field.name),
          name: field.name,
          required: field.required,
          defaultValue: initial[field.name] ?? '',
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${fieldId(field.name)}-error` : field.hint ? `${fieldId(field.name)}-hint` : undefined,
          ...(field.autoComplete ? { autoComplete: field.autoComplete } : {}),
        };
        return (
          <div className="field" key={field.name}>
            <label htmlFor={fieldId(field.name)}>
              {field.label}
              {field.required ? <span aria-hidden="true"> *</span> : <span className="muted"> (optional)</span>}
            </label>
            {field.type === 'textarea' ? (
              <textarea {...common} rows={5} maxLength={field.maxLength} />
            ) : field.type === 'select' ? (
              <select {...common}>
                <option value="">Choose…</option>
                {field.options?.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : (
              <input {...common} type={field.type} maxLength={field.maxLength} min={field.min} max={field.max} step={field.step} />
            )}
            {field.hint && !error && (
              <small id={`${fieldId(field.name)}-hint`} className="muted">
                {field.hint}
              </small>
            )}
            {error && (
              <small id={`${fieldId(field.name)}-error`} className="field-error">
                {error}
              </small>
            )}
          </div>
        );
      })}
      <div className="hp" aria-hidden="true">
        <label htmlFor={fieldId(HONEYPOT_FIELD)}>Leave this field empty</label>
        <input id={fieldId(HONEYPOT_FIELD)} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <p>
        <button className="btn btn-primary" type="submit" disabled={!hydrated || state.kind === 'sending'}>
          {state.kind === 'sending' ? 'Sending…' : form.submitLabel}
        </button>
      </p>
      <p role="status" aria-live="polite" className={state.kind === 'error' ? 'field-error' : 'form-status'}>
        {state.kind === 'sent'
          ? 'Thank you. Your enquiry has reached our desk, and a confirmation is on its way to your inbox.'
          : state.kind === 'error' && !state.field
            ? state.message
            : state.kind === 'error'
              ? 'Please correct the field marked above.'
              : ''}
      </p>
    </form>
  );
}
