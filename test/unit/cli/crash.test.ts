import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { crashReport } from '../../../src/cli/crash.js';
import { parserExit } from '../../../src/cli/program.js';
import { ConfigError } from '../../../src/config/errors.js';
import { secrets } from '../../../src/logging/secret-scrubber.js';

describe('crashReport: the exit code of an error that reached the top of the CLI (issue 12 point 8)', () => {
  it('a setting the user can fix is 2, with its message', () => {
    expect(
      crashReport(new ConfigError('invalid configuration', ['ERP_BRIDGE_X: expected a number'])),
    ).toEqual({
      line: 'erp-bridge: invalid configuration\n  - ERP_BRIDGE_X: expected a number\n',
      code: 2,
    });
  });

  it('anything else is an unexpected error, exit 1 — never 2 ("fix your settings")', () => {
    expect(crashReport(new TypeError("Cannot read properties of undefined (reading 'x')"))).toEqual({
      line: "erp-bridge: unexpected error: Cannot read properties of undefined (reading 'x')\n",
      code: 1,
    });
    expect(crashReport('a thrown string').code).toBe(1);
  });

  it("the parser's own ends have been printed already: help is 0, a usage error 2, anything else not the parser's", () => {
    expect(parserExit(new CommanderError(0, 'commander.helpDisplayed', ''))).toBe(0);
    expect(parserExit(new CommanderError(1, 'commander.unknownOption', 'x'))).toBe(2);
    expect(parserExit(new ConfigError('invalid configuration', []))).toBeUndefined();
  });

  it('scrubs secrets a server may have quoted', () => {
    secrets.add('crash-test-secret-value');
    const { line } = crashReport(new Error('server said: client_secret=crash-test-secret-value'));
    expect(line).not.toContain('crash-test-secret-value');
  });
});
