import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enquiryMails } from '../../src/server/enquiries.ts';
import { createMailer } from '../../src/server/mail/mailer.ts';
import { isOutboxFileName, listOutbox, readOutboxMessage } from '../../src/server/mail/outbox.ts';
import { escapeHtml, oneLine, renderMail } from '../../src/server/mail/templates.ts';
import { TEST_DATA_DIR } from './env.ts';

interface Received {
  readonly mailFrom: string;
  readonly rcptTo: string[];
  readonly mail: ParsedMail;
  readonly raw: string;
}

const addresses = (field: ParsedMail['to']): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address ?? ''));

const hostile = {
  name: 'Eve <script>alert("x")</script>',
  email: 'eve@example.test',
  phone: '+91 98200 12345',
  subject: 'Other',
  message: 'Hello & <b>bold</b>\nsecond line',
};

describe('SMTP delivery (smtp-server on loopback)', () => {
  const received: Received[] = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw)
            .then((mail) => {
              received.push({
                mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                rcptTo: session.envelope.rcptTo.map((r) => r.address),
                mail,
                raw,
              });
              callback();
            })
            .catch(callback);
        });
      },
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('delivers an enquiry to the operator, Reply-To the sender, with the input escaped in HTML', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      outboxDir: join(TEST_DATA_DIR, 'unused-outbox'),
      from: 'PolyIndex <desk@polyindex.test>',
      smtpOptions: { ignoreTLS: true },
    });
    expect(mailer.kind).toBe('smtp');
    const { operator, confirmation } = enquiryMails('contact', hostile, 'operator@polyindex.test');
    await mailer.send(operator);
    await mailer.send(confirmation);
    mailer.close();

    expect(received).toHaveLength(2);
    const [toOperator, toSender] = received as [Received, Received];
    expect(toOperator.rcptTo).toEqual(['operator@polyindex.test']);
    expect(toOperator.mailFrom).toBe('desk@polyindex.test');
    expect(addresses(toOperator.mail.to)).toEqual(['operator@polyindex.test']);
    expect(toOperator.mail.replyTo?.value[0]?.address).toBe('eve@example.test');
    expect(toOperator.mail.subject).toBe('[Enquiry: Write to us] Eve <script>alert("x")</script>');
    // Plain text keeps the words as typed; HTML never contains the markup.
    expect(toOperator.mail.text).toContain('Hello & <b>bold</b>');
    const html = String(toOperator.mail.html);
    expect(html).toContain('Eve &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('Hello &amp; &lt;b&gt;bold&lt;/b&gt;<br>second line');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>bold');

    expect(toSender.rcptTo).toEqual(['eve@example.test']);
    expect(addresses(toSender.mail.to)).toEqual(['eve@example.test']);
    expect(toSender.mail.replyTo?.value[0]?.address).toBe('operator@polyindex.test');
    expect(toSender.mail.subject).toBe('We received your enquiry: Write to us');
    expect(String(toSender.mail.html)).not.toContain('<script>');
    // The confirmation goes to a typed address: it carries none of the visitor's words.
    for (const body of [String(toSender.mail.html), String(toSender.mail.text)]) {
      expect(body).not.toContain('Eve');
      expect(body).not.toContain('bold');
    }
  });

  it('keeps a subject on one line: no header injection adds a recipient', async () => {
    received.length = 0;
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: TEST_DATA_DIR, from: 'desk@polyindex.test', smtpOptions: { ignoreTLS: true } });
    const mail = renderMail({ subject: 'Hi\r\nBcc: victim@example.test', heading: 'x', blocks: [] });
    await mailer.send({ ...mail, to: 'operator@polyindex.test' });
    mailer.close();
    expect(received[0]?.rcptTo).toEqual(['operator@polyindex.test']);
    expect(received[0]?.mail.subject).toBe('Hi Bcc: victim@example.test');
    expect(received[0]?.mail.bcc).toBeUndefined();
    const headerBlock = received[0]!.raw.split(/\r?\n\r?\n/)[0]!;
    expect(headerBlock).not.toMatch(/^Bcc:/im);
    expect(headerBlock).toMatch(/^Subject: Hi Bcc: victim@example.test$/m);
  });

  it('rejects a URL that is not SMTP', () => {
    expect(() => createMailer({ smtpUrl: 'http://127.0.0.1:1', outboxDir: TEST_DATA_DIR, from: 'a@b.test' })).toThrow(/smtp/);
  });
});

describe('the outbox (embedded default)', () => {
  it('writes each message as a time-sortable .eml that parses back, and lists newest first', async () => {
    const dir = mkdtempSync(join(TEST_DATA_DIR, 'outbox-'));
    const mailer = createMailer({ outboxDir: dir, from: 'PolyIndex <desk@polyindex.test>' });
    expect(mailer.kind).toBe('outbox');
    const first = await mailer.send({ ...renderMail({ subject: 'First ₹ message', heading: 'One', blocks: [{ paragraph: 'a < b' }] }), to: 'one@example.test' });
    const second = await mailer.send({ ...renderMail({ subject: 'Second', heading: 'Two', blocks: [] }), to: 'two@example.test', replyTo: 'r@example.test' });

    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(isOutboxFileName(file)).toBe(true);
    expect(first.delivery).toEqual({ kind: 'outbox', file: files[0] });
    expect(second.delivery).toEqual({ kind: 'outbox', file: files[1] });

    const parsed = await simpleParser(readFileSync(join(dir, files[0]!)));
    expect(parsed.subject).toBe('First ₹ message');
    expect(addresses(parsed.to)).toEqual(['one@example.test']);
    expect(parsed.messageId).toBe(first.messageId);
    expect(parsed.text).toContain('a < b');
    expect(String(parsed.html)).toContain('a &lt; b');

    const listed = await listOutbox(dir);
    expect(listed.map((m) => m.file)).toEqual([files[1], files[0]]);
    expect(listed[0]).toMatchObject({ to: 'two@example.test', replyTo: 'r@example.test', subject: 'Second' });
    expect(listed[1]).toMatchObject({ to: 'one@example.test', subject: 'First ₹ message', messageId: first.messageId });
    expect(await readOutboxMessage(dir, files[0]!)).toContain('Subject:');
  });

  it('reads only its own file names', async () => {
    const dir = mkdtempSync(join(TEST_DATA_DIR, 'outbox-'));
    expect(await readOutboxMessage(dir, '../../package.json')).toBeNull();
    expect(await readOutboxMessage(dir, '2026-11-22T10-00-00-000Z-x.eml')).toBeNull();
    expect(await listOutbox(join(dir, 'missing'))).toEqual([]);
  });
});

describe('templates', () => {
  it('escapes every HTML-special character', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
  it('makes subjects one line', () => {
    expect(oneLine('a\r\nb\tc\u0000d')).toBe('a b c d');
    expect(oneLine('x'.repeat(500))).toHaveLength(200);
  });
});
