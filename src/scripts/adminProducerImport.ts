/**
 * /admin/producer-prices: the CSV import of list prices. "Preview" posts the text to
 * /api/admin/producer-prices/import?dryRun=1 (the counts, or the bad lines, nothing written);
 * "Import" posts it for real, all or nothing.
 */
interface ImportAnswer {
  readonly rows?: number;
  readonly changed?: number;
  readonly error?: { readonly message?: string };
  readonly errors?: readonly { readonly line: number; readonly field: string; readonly message: string }[];
}

const form = document.querySelector<HTMLFormElement>('form[data-producer-import]');
if (form) {
  const text = form.querySelector<HTMLTextAreaElement>('textarea')!;
  const preview = form.querySelector<HTMLButtonElement>('[data-preview]')!;
  const importButton = form.querySelector<HTMLButtonElement>('[data-import]')!;
  const status = form.querySelector<HTMLElement>('[data-import-status]')!;
  const say = (message: string, isError: boolean) => {
    status.textContent = message;
    status.classList.toggle('form-error', isError);
  };
  const send = async (dryRun: boolean) => {
    preview.disabled = importButton.disabled = true;
    say(dryRun ? 'Checking…' : 'Importing…', false);
    try {
      const response = await fetch(`${form.action}${dryRun ? '?dryRun=1' : ''}`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'application/json' }, credentials: 'same-origin', body: text.value });
      const answer = (await response.json().catch(() => ({}))) as ImportAnswer;
      if (!response.ok) {
        const lines = (answer.errors ?? []).slice(0, 10).map((e) => `line ${e.line}, ${e.field}: ${e.message}`);
        say([answer.error?.message ?? `The import failed (HTTP ${response.status}).`, ...lines.slice(1)].join(' · '), true);
        return;
      }
      say(dryRun ? `Preview: ${answer.rows} rows; ${answer.changed} new or changed. Nothing is written yet.` : `Imported: ${answer.rows} rows; ${answer.changed} new or changed.`, false);
    } catch {
      say('The server could not be reached; try again.', true);
    } finally {
      preview.disabled = importButton.disabled = false;
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void send(true);
  });
  importButton.addEventListener('click', () => void send(false));
  preview.disabled = importButton.disabled = false;
}

export {};
