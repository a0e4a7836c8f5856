/**
 * WhatsApp's own formatting, as the phone shows it: `*bold*` within a line (the asterisks go,
 * the words turn bold). Only what our messages use; an asterisk without its pair stays as typed.
 * /alerts' preview draws the next update with it, so it reads as it will on the phone.
 */
export interface FormattedSpan {
  readonly text: string;
  readonly bold: boolean;
}

/** A message's spans, line breaks kept in the text. */
export function whatsappSpans(message: string): FormattedSpan[] {
  const spans: FormattedSpan[] = [];
  const push = (text: string, bold: boolean) => {
    if (text === '') return;
    const last = spans.at(-1);
    if (last && last.bold === bold) spans[spans.length - 1] = { text: last.text + text, bold };
    else spans.push({ text, bold });
  };
  const lines = message.split('\n');
  lines.forEach((line, i) => {
    // WhatsApp bolds *text* when the asterisks hug non-space text on one line.
    let rest = line;
    for (let match = /\*(\S(?:[^*\n]*\S)?)\*/.exec(rest); match; match = /\*(\S(?:[^*\n]*\S)?)\*/.exec(rest)) {
      push(rest.slice(0, match.index), false);
      push(match[1]!, true);
      rest = rest.slice(match.index + match[0].length);
    }
    push(rest + (i < lines.length - 1 ? '\n' : ''), false);
  });
  return spans;
}
