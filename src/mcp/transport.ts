/**
 * MCP over stdio, one JSON-RPC message a line, as the SDK's StdioServerTransport reads
 * it, except for what a client should never send: a line that is not JSON is answered
 * with the JSON-RPC parse error (-32700) and one that is JSON but no JSON-RPC message with
 * an invalid request (-32600), instead of being dropped unanswered; and a message over
 * MAX_MESSAGE_BYTES is skipped to its end of line and answered with an error, where the
 * SDK's transport closed and the server exited 0 without a word. The server keeps serving.
 */
import type { Readable, Writable } from 'node:stream';
import { JSONRPCMessageSchema } from './sdk.js';

export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

type Message = ReturnType<typeof JSONRPCMessageSchema.parse>;

export class LineTransport {
  onmessage?: (message: Message) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Inside a message over the limit: bytes are dropped until its newline. */
  private skipping = false;
  private started = false;

  constructor(private readonly input: Readable = process.stdin, private readonly output: Writable = process.stdout) {}

  private readonly onData = (chunk: Buffer) => {
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(10, from);
      const end = nl === -1 ? chunk.length : nl;
      if (!this.skipping) {
        this.chunks.push(chunk.subarray(from, end));
        this.size += end - from;
        if (this.size > MAX_MESSAGE_BYTES) {
          this.chunks = [];
          this.size = 0;
          this.skipping = true;
          this.reply(-32600, `Invalid Request: a message over ${MAX_MESSAGE_BYTES / 1024 / 1024} MB is not read`);
        }
      }
      if (nl === -1) break;
      if (this.skipping) this.skipping = false;
      else this.line(Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, ''));
      this.chunks = [];
      this.size = 0;
      from = nl + 1;
    }
  };

  private readonly onError = (err: Error) => this.onerror?.(err);

  private line(text: string): void {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      this.reply(-32700, `Parse error: ${(err as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = value && typeof value === 'object' && 'id' in value && (typeof value.id === 'string' || typeof value.id === 'number') ? value.id : null;
      this.reply(-32600, 'Invalid Request: not a JSON-RPC 2.0 message', id);
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reply(code: number, message: string, id: string | number | null = null): void {
    this.output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('the transport is already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
  }

  send(message: Message): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.chunks = [];
    this.onclose?.();
  }
}
