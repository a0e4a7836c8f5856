/**
 * The price bot against its phrase table (tests/unit/data/bot-phrases.tsv): over two hundred
 * questions as traders send them, in English, Hinglish and Hindi, each with the answer it must
 * get (the instruments, a family of them, the day; or a command, a digest, a producer, unknown).
 * The run must answer at least 95 % of them with the right series, and it prints the ones it
 * gets wrong.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findInstrument } from '../../src/lib/delivery/instruments.ts';
import { readBotMessage, type BotRequest } from '../../src/lib/delivery/priceBot.ts';

const TODAY = '2026-11-24';

interface Phrase {
  readonly line: number;
  readonly text: string;
  readonly expect: string;
  readonly when: string;
}

const phrases: Phrase[] = readFileSync(new URL('./data/bot-phrases.tsv', import.meta.url), 'utf8')
  .split('\n')
  .map((raw, index) => ({ raw, line: index + 1 }))
  .filter(({ raw }) => raw.trim() !== '' && !raw.startsWith('#'))
  .map(({ raw, line }) => {
    const [text, expected, when] = raw.split('\t');
    return { line, text: text!, expect: (expected ?? '').trim(), when: (when ?? 'latest').trim() };
  });

/** What the bot answered, in the table's words. */
function described(request: BotRequest): { expect: string; when: string } {
  const when = 'when' in request ? (request.when.kind === 'latest' ? 'latest' : `${request.when.kind} ${request.when.date}`) : 'latest';
  switch (request.kind) {
    case 'price':
      return { expect: request.instruments.map((i) => i.id).join(' '), when };
    case 'producer':
      return { expect: [`producer:${request.producer.id}`, ...request.instruments.map((i) => i.id)].join(' '), when };
    default:
      return { expect: request.kind, when };
  }
}

describe('the phrase table', () => {
  it('is at least 200 phrasings, in English, Hinglish and Hindi, naming only prices we publish', () => {
    expect(phrases.length).toBeGreaterThanOrEqual(200);
    expect(phrases.filter((p) => /[\u0900-\u097f]/.test(p.text)).length).toBeGreaterThanOrEqual(40);
    expect(phrases.filter((p) => /\b(ka|ki|ke|kya|hai|daam|bhav|batao|kal|aaj)\b/i.test(p.text)).length).toBeGreaterThanOrEqual(60);
    for (const phrase of phrases) {
      for (const id of phrase.expect.split(' ').filter((w) => w.includes('.'))) expect(findInstrument(id), `line ${phrase.line}: ${id}`).toBeDefined();
      expect(phrase.when, `line ${phrase.line}`).toMatch(/^(latest|on \d{4}-\d\d-\d\d|since \d{4}-\d\d-\d\d)$/);
    }
  });

  it('answers at least 95 % of the phrases with the right series (and day)', () => {
    const wrong = phrases.flatMap((phrase) => {
      const got = described(readBotMessage(phrase.text, TODAY));
      return got.expect === phrase.expect && got.when === phrase.when ? [] : [`line ${phrase.line}: ${JSON.stringify(phrase.text)} → ${got.expect} (${got.when}), expected ${phrase.expect} (${phrase.when})`];
    });
    const score = (phrases.length - wrong.length) / phrases.length;
    console.info(`[price bot] ${phrases.length - wrong.length} of ${phrases.length} phrases right (${(score * 100).toFixed(1)} %)${wrong.length ? `:\n${wrong.join('\n')}` : ''}`);
    expect(score).toBeGreaterThanOrEqual(0.95);
  });
});
