/**
 * A fake of Meta's Graph API for WhatsApp messages, on loopback: `POST /{version}/{phone-number-id}/messages`
 * with a bearer token. It answers as the Cloud API does, and refuses as it does: a template must be
 * one registered in WhatsApp Manager (name and language; the registrations are the ones
 * docs/delivery.md lists, passed in), with as many body parameters as its body has, none empty,
 * none with a line break, a tab or more than four spaces in a row (132018), and the body filled
 * in at most 1,024 characters (132005); free text at most 4,096 characters. These checks are
 * written here from Meta's documentation, apart from the application's own (a test that used the
 * application's checks would prove nothing).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface Registered {
  readonly name: string;
  readonly language: string;
  readonly body: string;
}

export interface FakeGraph {
  /** `http://127.0.0.1:{port}/v21.0` */
  readonly baseUrl: string;
  /** Every request, in order, with what was answered. */
  readonly seen: { url: string; auth: string | undefined; body: Record<string, unknown>; status: number; error: { code: number; message: string } | null }[];
  /** Answers to give instead of the checks (shifted one per request). */
  readonly answers: { status: number; body: unknown }[];
  close(): Promise<void>;
}

const graphError = (code: number, message: string) => ({ error: { message, type: 'OAuthException', code, fbtrace_id: 'fake' } });

function refusal(body: Record<string, unknown>, registered: readonly Registered[]): { code: number; message: string } | null {
  if (body['messaging_product'] !== 'whatsapp') return { code: 100, message: '(#100) The parameter messaging_product is required.' };
  if (typeof body['to'] !== 'string' || !/^\d{8,15}$/.test(body['to'])) return { code: 100, message: '(#100) Invalid parameter: to' };
  if (body['type'] === 'text') {
    const text = (body['text'] as { body?: unknown } | undefined)?.body;
    if (typeof text !== 'string' || text.length === 0) return { code: 100, message: '(#100) The parameter text[body] is required.' };
    if ([...text].length > 4096) return { code: 100, message: '(#100) Param text[body] must be at most 4096 characters long.' };
    return null;
  }
  if (body['type'] !== 'template') return { code: 100, message: '(#100) Invalid parameter: type' };
  const template = body['template'] as { name?: string; language?: { code?: string }; components?: { type?: string; parameters?: { type?: string; text?: unknown }[] }[] };
  const found = registered.find((r) => r.name === template?.name && r.language === template?.language?.code);
  if (!found) return { code: 132001, message: `(#132001) Template name does not exist in the translation` };
  const expected = new Set([...found.body.matchAll(/\{\{(\d+)\}\}/g)].map((m) => m[1])).size;
  const parameters = template.components?.find((c) => c.type === 'body')?.parameters ?? [];
  if (parameters.length !== expected) return { code: 132000, message: `(#132000) Number of parameters does not match the expected number of params` };
  const texts: string[] = [];
  for (const parameter of parameters) {
    const text = parameter.text;
    if (parameter.type !== 'text' || typeof text !== 'string' || text.trim() === '') return { code: 132018, message: '(#132018) There was an issue with the parameters in your template.' };
    if (text.includes('\n') || text.includes('\t') || text.includes('\r') || text.includes('     ')) {
      return { code: 132018, message: '(#132018) Param text cannot have new-line/tab characters or more than 4 consecutive spaces' };
    }
    texts.push(text);
  }
  let filled = found.body;
  texts.forEach((text, i) => {
    filled = filled.split(`{{${i + 1}}}`).join(text);
  });
  if ([...filled].length > 1024) return { code: 132005, message: '(#132005) Translated text too long' };
  return null;
}

export async function startFakeGraph(registered: readonly Registered[]): Promise<FakeGraph> {
  const seen: FakeGraph['seen'] = [];
  const answers: FakeGraph['answers'] = [];
  let id = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const given = answers.shift();
      const refused = given ? null : refusal(body, registered);
      const answer = given ?? (refused ? { status: 400, body: graphError(refused.code, refused.message) } : { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: body['to'], wa_id: body['to'] }], messages: [{ id: `wamid.fake.${++id}` }] } });
      seen.push({ url: req.url ?? '', auth: req.headers.authorization, body, status: answer.status, error: refused });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  return {
    baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v21.0`,
    seen,
    answers,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
