/** The part of mailparser 3.7 the tests use (the package ships no types). */
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
  export function simpleParser(source: string | Buffer | NodeJS.ReadableStream): Promise<ParsedMail>;
}
