import { describe, expect, it } from 'vitest';
import { whatsappSpans } from '../../src/lib/delivery/whatsappFormat.ts';

describe('WhatsApp formatting as the phone shows it', () => {
  it('bolds *words* and drops their asterisks, line by line', () => {
    expect(whatsappSpans('*PolyIndex prices · Fri 27 Nov 2026*\n\n*Brent crude* $77.10/bbl ▼0.24')).toEqual([
      { text: 'PolyIndex prices · Fri 27 Nov 2026', bold: true },
      { text: '\n\n', bold: false },
      { text: 'Brent crude', bold: true },
      { text: ' $77.10/bbl ▼0.24', bold: false },
    ]);
  });

  it('leaves a lone asterisk, a spaced one and one across lines as typed', () => {
    expect(whatsappSpans('5 * 3 and *a\nb*')).toEqual([{ text: '5 * 3 and *a\nb*', bold: false }]);
    expect(whatsappSpans('* not bold *')).toEqual([{ text: '* not bold *', bold: false }]);
  });

  it('reads a Hindi update the same way', () => {
    expect(whatsappSpans('*PP रैफिया मुंबई* ₹109.00/किलो')).toEqual([
      { text: 'PP रैफिया मुंबई', bold: true },
      { text: ' ₹109.00/किलो', bold: false },
    ]);
  });
});
