import type { Cause } from '../contract/index.js';

/**
 * An error answer of the sandbox: the spec's status, `error` code and ExceptionDetails body.
 * Handlers throw it; the router turns it into the response.
 */
export class SandboxFault extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly causes?: Cause[],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'SandboxFault';
  }

  toBody(now: number): { timestamp: number; error: string; message: string; causes?: Cause[] } {
    const body: { timestamp: number; error: string; message: string; causes?: Cause[] } = {
      timestamp: now,
      error: this.code,
      message: this.message,
    };
    if (this.causes && this.causes.length > 0) body.causes = this.causes;
    return body;
  }
}

export const invalidRequest = (message: string, causes?: Cause[]) =>
  new SandboxFault(400, 'INVALID_REQUEST', message, causes);
export const notFound = (code: string, message: string) => new SandboxFault(404, code, message);
export const conflict = (code: string, message: string) => new SandboxFault(409, code, message);
