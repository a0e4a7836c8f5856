/**
 * The CSV import form (/admin/prices/import): a file or pasted text is sent as `text/csv` to
 * /api/admin/prices/import?dryRun=1 for a preview (rows and changes per series, or the bad lines),
 * and only after that preview to the real import. Everything shown is set as text, never as HTML.
 */

interface Answer {
  readonly rows?: number;
  readonly changed?: number;
  readonly series?: number;
  readonly bySeries?: Readonly<Record<string, { readonly rows: number; readonly changed: number }>>;
  readonly error?: { readonly message?: string };
  readonly errors?: readonly { readonly line: number; readonly field: string; readonly message: string }[];
}

const form = document.querySelector<HTMLFormElement>('form[data-import-form]');
if (form) {
  const textarea = form.querySelector<HTMLTextAreaElement>('textarea[name="csv"]')!;
  const fileInput = form.querySelector<HTMLInputElement>('input[type="file"]')!;
  const previewButton = form.querySelector<HTMLButtonElement>('[data-preview]')!;
  const importButton = form.querySelector<HTMLButtonElement>('[data-import]')!;
  const status = document.querySelector<HTMLElement>('[data-import-status]')!;
  const result = document.querySelector<HTMLElement>('[data-import-result]')!;
  let previewed: string | null = null;

  const say = (text: string, isError: boolean) => {
    status.textContent = text;
    status.classList.toggle('form-error', isError);
  };
  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    return node;
  };

  function show(answer: Answer): void {
    result.replaceChildren();
    if (answer.errors?.length) {
      const list = el('ul');
      for (const e of answer.errors) list.append(el('li', `Line ${e.line}, ${e.field}: ${e.message}`));
      result.append(list);
      return;
    }
    if (!answer.bySeries) return;
    const table = el('table');
    table.dataset['testid'] = 'import-preview';
    const head = el('tr');
    head.append(el('th', 'Series'), el('th', 'Rows'), el('th', 'New or changed'));
    table.append(el('thead'), el('tbody'));
    table.tHead!.append(head);
    for (const [id, counts] of Object.entries(answer.bySeries)) {
      const row = el('tr');
      row.dataset['series'] = id;
      row.append(el('td', id), el('td', String(counts.rows)), el('td', String(counts.changed)));
      table.tBodies[0]!.append(row);
    }
    result.append(table);
  }

  async function send(text: string, dryRun: boolean): Promise<Answer & { ok: boolean; status: number }> {
    const response = await fetch(`${form!.action}${dryRun ? '?dryRun=1' : ''}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/csv', Accept: 'application/json' },
      credentials: 'same-origin',
      body: text,
    });
    const answer = (await response.json().catch(() => ({}))) as Answer;
    return { ...answer, ok: response.ok, status: response.status };
  }

  const invalidate = () => {
    previewed = null;
    importButton.disabled = true;
  };
  textarea.addEventListener('input', invalidate);
  fileInput.addEventListener('change', () => {
    invalidate();
    const file = fileInput.files?.[0];
    if (file) void file.text().then((text) => (textarea.value = text));
  });

  const run = async (dryRun: boolean) => {
    const text = dryRun ? textarea.value : previewed;
    if (text === null || text.trim() === '') return say('Paste the CSV or choose a file first.', true);
    previewButton.disabled = importButton.disabled = true;
    say(dryRun ? 'Checking…' : 'Importing…', false);
    try {
      const answer = await send(text, dryRun);
      show(answer);
      if (!answer.ok) {
        invalidate();
        say(answer.error?.message ?? `The server refused the file (HTTP ${answer.status}).`, true);
      } else if (dryRun) {
        previewed = text;
        say(`Preview: ${answer.rows} rows in ${answer.series} series; ${answer.changed} new or changed. Nothing is written yet.`, false);
      } else {
        invalidate();
        say(`Imported: ${answer.rows} rows in ${answer.series} series; ${answer.changed} new or changed.`, false);
      }
    } catch {
      say('The server could not be reached; try again.', true);
    } finally {
      previewButton.disabled = false;
      importButton.disabled = previewed === null;
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run(true);
  });
  importButton.addEventListener('click', () => void run(false));
  previewButton.disabled = false;
  form.dataset['ready'] = 'true';
}
