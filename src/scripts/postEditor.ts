/**
 * The post editor (src/components/PostEditor.astro): live preview through the site's renderer,
 * save / publish / schedule / unpublish / delete / restore as JSON calls to /api/admin/posts,
 * the cover upload (multipart) and a test mail to oneself. Errors are shown beside the field the
 * server names; a successful change reloads the page with a notice.
 */
import { formBody } from '../lib/admin/forms.ts';

interface ErrorAnswer {
  readonly error?: { readonly message?: string; readonly field?: string };
}

/** Waits this long after the last keystroke before asking for a preview. */
const PREVIEW_DELAY_MS = 300;

type Action = 'save' | 'publish' | 'schedule' | 'unpublish' | 'delete' | 'restore' | 'test-mail' | 'remove-cover';

function statusOf(form: HTMLFormElement) {
  const status = form.querySelector<HTMLElement>('[data-form-status]');
  return (text: string, isError: boolean) => {
    if (!status) return;
    status.textContent = text;
    status.classList.toggle('form-error', isError);
  };
}

async function errorOf(response: Response): Promise<ErrorAnswer['error']> {
  const answer = (await response.json().catch(() => ({}))) as ErrorAnswer;
  return answer.error ?? { message: `The change failed (HTTP ${response.status}).` };
}

function markField(form: HTMLFormElement, field: string | undefined): void {
  const element = field ? form.elements.namedItem(field) : null;
  if (element instanceof HTMLElement) {
    element.setAttribute('aria-invalid', 'true');
    element.focus();
  }
}

function reloadWith(done: string, path?: string): void {
  const next = new URL(path ?? window.location.pathname, window.location.origin);
  next.searchParams.set('done', done);
  window.location.assign(next.toString());
}

const sendJson = (url: string, method: string, body: unknown): Promise<Response> =>
  fetch(url, {
    method,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });

function takeOverEditor(form: HTMLFormElement): void {
  const api = form.dataset['api'] ?? '/api/admin/posts';
  const id = form.dataset['id'] ?? '';
  const say = statusOf(form);
  const buttons = [...document.querySelectorAll<HTMLButtonElement>('[data-action]')];
  const preview = document.querySelector<HTMLElement>('[data-preview]');
  const previewTitle = document.querySelector<HTMLElement>('[data-preview-title]');
  const previewSummary = document.querySelector<HTMLElement>('[data-preview-summary]');
  const body = form.elements.namedItem('body') as HTMLTextAreaElement | null;
  const title = form.elements.namedItem('title') as HTMLInputElement | null;
  const summary = form.elements.namedItem('summary') as HTMLTextAreaElement | null;

  // The preview: the server renders and sanitises exactly as the article page will.
  let timer: number | undefined;
  let asked = 0;
  const refresh = () => {
    const ticket = ++asked;
    void (async () => {
      const response = await sendJson('/api/admin/posts/preview', 'POST', { body: body?.value ?? '' }).catch(() => null);
      if (!response?.ok || ticket !== asked || !preview) return;
      const { html } = (await response.json()) as { html: string };
      preview.innerHTML = html;
      preview.dataset['rendered'] = String(ticket);
    })();
  };
  body?.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(refresh, PREVIEW_DELAY_MS);
  });
  title?.addEventListener('input', () => {
    if (previewTitle) previewTitle.textContent = title.value;
  });
  summary?.addEventListener('input', () => {
    if (previewSummary) previewSummary.textContent = summary.value;
  });

  const fields = (): Record<string, unknown> => {
    const values: Record<string, unknown> = formBody(new FormData(form).entries());
    delete values['publishAt'];
    // Empty text fields are sent as they are: clearing the summary or the tags is a change.
    for (const name of ['summary', 'tags']) values[name] = String(new FormData(form).get(name) ?? '').trim();
    return values;
  };
  const publishAt = (): string => String(new FormData(form).get('publishAt') ?? '').trim();

  const run = async (action: Action): Promise<void> => {
    for (const field of form.querySelectorAll('[aria-invalid]')) field.removeAttribute('aria-invalid');
    if (action === 'delete' && !window.confirm('Delete this post? Readers will no longer find it; it can be restored from the deleted posts.')) return;
    say(action === 'test-mail' ? 'Sending…' : 'Saving…', false);
    let response: Response;
    if (action === 'test-mail') {
      response = await sendJson(`${api}/test-mail`, 'POST', {});
      if (response.ok) {
        const { to } = (await response.json()) as { to: string };
        say(`Test mail sent to ${to}.`, false);
        return;
      }
    } else if (action === 'delete') {
      response = await fetch(api, { method: 'DELETE', headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      if (response.ok) return reloadWith('post-deleted', '/admin/posts');
    } else if (action === 'restore') {
      response = await sendJson(api, 'PATCH', { restore: true });
      if (response.ok) return reloadWith('post-restored');
    } else if (action === 'remove-cover') {
      response = await sendJson(api, 'PATCH', { cover: null });
      if (response.ok) return reloadWith('post-cover');
    } else {
      const payload = fields();
      if (action === 'publish') payload['status'] = 'published';
      if (action === 'unpublish') payload['status'] = 'unpublished';
      if (action === 'schedule') {
        payload['status'] = 'scheduled';
        payload['publishAt'] = publishAt();
        if (!payload['publishAt']) {
          say('Choose when the post goes live.', true);
          markField(form, 'publishAt');
          return;
        }
      }
      response = id ? await sendJson(api, 'PATCH', payload) : await sendJson(api, 'POST', payload);
      if (response.ok) {
        const done = action === 'save' ? (id ? 'post-saved' : 'post-created') : `post-${action === 'publish' ? 'published' : action === 'schedule' ? 'scheduled' : 'unpublished'}`;
        const answer = (await response.json()) as { id?: string };
        return reloadWith(done, id ? undefined : `/admin/posts/${encodeURIComponent(answer.id ?? '')}`);
      }
    }
    const error = await errorOf(response);
    say(error?.message ?? 'The change failed.', true);
    markField(form, error?.field);
  };

  for (const button of buttons) {
    if (!form.contains(button) && button.dataset['action'] !== 'remove-cover') continue;
    button.addEventListener('click', () => {
      for (const b of buttons) b.disabled = true;
      run(button.dataset['action'] as Action)
        .catch(() => say('The server could not be reached; try again.', true))
        .finally(() => {
          for (const b of buttons) b.disabled = false;
        });
    });
    button.disabled = false;
  }
  form.dataset['ready'] = 'true';
}

function takeOverCover(form: HTMLFormElement): void {
  const say = statusOf(form);
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    for (const field of form.querySelectorAll('[aria-invalid]')) field.removeAttribute('aria-invalid');
    if (submit) submit.disabled = true;
    say('Uploading…', false);
    void (async () => {
      try {
        const response = await fetch(form.action, { method: 'POST', headers: { Accept: 'application/json' }, credentials: 'same-origin', body: new FormData(form) });
        if (response.ok) return reloadWith('post-cover');
        const error = await errorOf(response);
        say(error?.message ?? 'The upload failed.', true);
        markField(form, error?.field);
      } catch {
        say('The server could not be reached; try again.', true);
      } finally {
        if (submit) submit.disabled = false;
      }
    })();
  });
  if (submit) submit.disabled = false;
  form.dataset['ready'] = 'true';
}

const editor = document.querySelector<HTMLFormElement>('form[data-post-form]');
if (editor) takeOverEditor(editor);
const cover = document.querySelector<HTMLFormElement>('form[data-cover-form]');
if (cover) takeOverCover(cover);
