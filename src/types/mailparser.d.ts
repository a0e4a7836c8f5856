/** The part of mailparser 3.7 the outbox (src/server/mail/outbox.ts) and the tests use (the package ships no types). */
declare module 'mailparser' {
  export interface EmailAddress {
    address?: string;
    name: string;
  }
  export interface AddressObject {
    value: EmailAddress[];
    text: string;
    html: string;
  }
  export interface ParsedMail {
    headers: Map<string, unknown>;
    /** Every header as written: `key` lower-cased, `line` the whole header line (unfolded). */
    headerLines: { key: string; line: string }[];
    subject?: string;
    from?: AddressObject;
    to?: AddressObject | AddressObject[];
    cc?: AddressObject | AddressObject[];
    bcc?: AddressObject | AddressObject[];
    replyTo?: AddressObject;
    messageId?: string;
    date?: Date;
    text?: string;
    html: string | false;
  }
  export interface SimpleParserOptions {
    skipHtmlToText?: boolean;
    skipTextToHtml?: boolean;
    skipImageLinks?: boolean;
  }
  export function simpleParser(source: string | Buffer | NodeJS.ReadableStream, options?: SimpleParserOptions): Promise<ParsedMail>;
}
