import type { AccountRecord, SandboxState, UserRecord } from '../state.js';

/**
 * Lookup indexes behind the uniqueness rules of accounts and users (account externalId per
 * partner, email across the sandbox, user externalId per account), so no check scans every account.
 *
 * They live beside the state, in WeakMaps keyed by the state or account object, not inside it: a
 * reset builds a new state and so starts a new index, and the frame's records stay as they are.
 * Built lazily from the records on first use; every hit is verified against the records, so an
 * entry left behind by a change made elsewhere can never cause a false conflict.
 */
interface DirectoryIndex {
  /** partnerId -> account externalId -> account id. */
  accountsByExternalId: Map<string, Map<string, number>>;
  /** Normalised email -> the account and user holding it. */
  usersByEmail: Map<string, { accountId: number; userId: number }>;
}

const directories = new WeakMap<SandboxState, DirectoryIndex>();

/** Emails compare case-insensitively (the domain part is case-insensitive, and mail systems treat the rest so). */
export const emailKey = (email: string): string => email.trim().toLowerCase();

function directory(state: SandboxState): DirectoryIndex {
  let index = directories.get(state);
  if (!index) {
    index = { accountsByExternalId: new Map(), usersByEmail: new Map() };
    directories.set(state, index);
    for (const account of state.accounts.values()) addAccount(index, account);
  }
  return index;
}

function addAccount(index: DirectoryIndex, account: AccountRecord): void {
  let byExternalId = index.accountsByExternalId.get(account.partnerId);
  if (!byExternalId) {
    byExternalId = new Map();
    index.accountsByExternalId.set(account.partnerId, byExternalId);
  }
  byExternalId.set(account.externalId, account.id);
  for (const user of account.users.values())
    index.usersByEmail.set(emailKey(user.email), { accountId: account.id, userId: user.id });
}

/** The partner's account with this externalId (exact, case-sensitive match). */
export function findAccountByExternalId(
  state: SandboxState,
  partnerId: string,
  externalId: string,
): AccountRecord | undefined {
  const id = directory(state).accountsByExternalId.get(partnerId)?.get(externalId);
  const account = id === undefined ? undefined : state.accounts.get(id);
  return account?.partnerId === partnerId && account.externalId === externalId ? account : undefined;
}

/** The user holding this email anywhere in the sandbox. */
export function findUserByEmail(state: SandboxState, email: string): UserRecord | undefined {
  const key = emailKey(email);
  const where = directory(state).usersByEmail.get(key);
  const user = where ? state.accounts.get(where.accountId)?.users.get(where.userId) : undefined;
  return user && emailKey(user.email) === key ? user : undefined;
}

/** Call after the account (with its users) has been put into `state.accounts`. */
export function indexAccount(state: SandboxState, account: AccountRecord): void {
  addAccount(directory(state), account);
}

/** Call after the account has been removed from `state.accounts`. */
export function unindexAccount(state: SandboxState, account: AccountRecord): void {
  const index = directory(state);
  index.accountsByExternalId.get(account.partnerId)?.delete(account.externalId);
  for (const user of account.users.values()) index.usersByEmail.delete(emailKey(user.email));
  userIndexes.delete(account);
}

// Users by externalId, per account -----------------------------------------------------------------

interface UserIndex {
  /** account.users.size when the index was last in step; a difference means a change elsewhere. */
  size: number;
  byExternalId: Map<string, number>;
}

const userIndexes = new WeakMap<AccountRecord, UserIndex>();

function userIndex(account: AccountRecord): UserIndex {
  let index = userIndexes.get(account);
  if (!index || index.size !== account.users.size) {
    index = { size: account.users.size, byExternalId: new Map() };
    for (const user of account.users.values()) index.byExternalId.set(user.externalId, user.id);
    userIndexes.set(account, index);
  }
  return index;
}

/** The account's user with this externalId (exact, case-sensitive match). */
export function findUserByExternalId(account: AccountRecord, externalId: string): UserRecord | undefined {
  const id = userIndex(account).byExternalId.get(externalId);
  const user = id === undefined ? undefined : account.users.get(id);
  return user?.externalId === externalId ? user : undefined;
}

/** Stores a new user in the account and in every index. */
export function putUser(state: SandboxState, account: AccountRecord, user: UserRecord): void {
  const index = userIndex(account);
  account.users.set(user.id, user);
  index.byExternalId.set(user.externalId, user.id);
  index.size = account.users.size;
  directory(state).usersByEmail.set(emailKey(user.email), { accountId: account.id, userId: user.id });
}

/** Removes a user from the account and from every index. */
export function removeUser(state: SandboxState, account: AccountRecord, user: UserRecord): void {
  const index = userIndex(account);
  account.users.delete(user.id);
  index.byExternalId.delete(user.externalId);
  index.size = account.users.size;
  directory(state).usersByEmail.delete(emailKey(user.email));
}
