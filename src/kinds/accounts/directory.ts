import type { Account } from '../../contract/index.js';
import type { ChunkContext } from '../../sync/ports.js';

/**
 * The partner's customer accounts as one chunk sees them. The API finds an account only by listing
 * them (no lookup by externalId), so the list is read once per chunk and again only after an
 * ambiguous write or a conflict, when the service may hold more than the chunk saw.
 */
export class AccountDirectory {
  #byExternalId = new Map<string, Account>();

  private constructor(private readonly ctx: ChunkContext) {}

  static async read(ctx: ChunkContext): Promise<AccountDirectory> {
    const directory = new AccountDirectory(ctx);
    await directory.#list();
    return directory;
  }

  /** The account with the externalId (unique per partner: the service refuses a second one). */
  find(externalId: string): Account | undefined {
    return this.#byExternalId.get(externalId);
  }

  /** Lists the accounts again and finds the externalId in the fresh list. */
  async refind(externalId: string): Promise<Account | undefined> {
    await this.#list();
    return this.find(externalId);
  }

  async #list(): Promise<void> {
    const accounts = await this.ctx.client.listAccounts({ signal: this.ctx.signal });
    this.#byExternalId = new Map(accounts.map((account) => [account.externalId, account]));
  }
}
