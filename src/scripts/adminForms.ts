/**
 * The admin forms (`form[data-admin-form]`): post the form's fields as JSON to its action (an
 * /api/admin endpoint), then reload with a notice, or show the error beside the field it names.
 * Submit buttons stay disabled until this script has taken the form over.
 */
import { formBody, nestedBody } from '../lib/admin/forms.ts';

interface ErrorAnswer {
  readonly error?: { readonly message?: string; readonly field?: string };
}

function takeOver(form: HTMLFormElement): void {
  const status = form.querySelector<HTMLElement>('[data-form-status]');
  const buttons = [...form.querySelectorAll<HTMLButtonElement>('button[type="submit"]')];
  const say = (text: string, isError: boolean) => {
    if (!status) return;
    status.textContent = text;
    status.classList.toggle('form-error', isError);
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const question = form.dataset['confirm'];
    if (question && !window.confirm(question)) return;
    // form.elements: also the inputs placed outside the form element by a form attribute (a table row's cells).
    for (const field of form.elements) field.removeAttribute('aria-invalid');
    for (const button of buttons) button.disabled = true;
    say('Saving…', false);
    void (async () => {
      try {
        // A form with a file (enctype multipart/form-data) is sent as it is; the others as JSON.
        const multipart = form.enctype === 'multipart/form-data';
        // Fields with a data-path (a table of inputs, e.g. a country's offers) are sent nested at that path.
        const paths = [...form.querySelectorAll<HTMLInputElement>('input[data-path]')].map((input) => [input.name, JSON.parse(input.dataset['path'] ?? '[]') as string[]] as const);
        const body = nestedBody(formBody(new FormData(form).entries()), paths);
        const response = await fetch(form.action, {
          method: 'POST',
          headers: multipart ? { Accept: 'application/json' } : { 'Content-Type': 'application/json', Accept: 'application/json' },
          credentials: 'same-origin',
          body: multipart ? new FormData(form) : JSON.stringify(body),
        });
        if (response.ok) {
          const next = new URL(window.location.href);
          next.searchParams.set('done', form.dataset['done'] ?? 'saved');
          window.location.assign(next.toString());
          return;
        }
        const answer = (await response.json().catch(() => ({}))) as ErrorAnswer;
        say(answer.error?.message ?? `The change failed (HTTP ${response.status}).`, true);
        const field = answer.error?.field ? form.elements.namedItem(answer.error.field) : null;
        if (field instanceof HTMLElement) {
          field.setAttribute('aria-invalid', 'true');
          field.focus();
        }
      } catch {
        say('The server could not be reached; try again.', true);
      } finally {
        for (const button of buttons) button.disabled = false;
      }
    })();
  });
  for (const button of buttons) button.disabled = false;
  form.dataset['ready'] = 'true';
}

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-admin-form]')) takeOver(form);
