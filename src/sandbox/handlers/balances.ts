import { LIMITS, type Page } from '../../contract/index.js';
import type { BankAccountRecord, TransactionRecord } from '../state.js';
import { lowerBound } from './finance-common.js';

/**
 * Start-of-day balances of a bank account, one record per calendar day, ascending, from the earlier
 * of balanceDate and the first booking date to the later of balanceDate and the day after the last
 * booking date (so the closing balance after the last booking shows up).
 *
 * balance(d) = reference + (sum of amounts booked before d) - (sum booked before the reference date).
 * The reference is balanceReference on balanceDate; without one, 0 on the first booking date.
 * Only the requested page is computed (prefix sums + binary search), so a long date range is cheap.
 */

const DAY_MS = 86_400_000;
const dayNumber = (isoDate: string): number => Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS;
const isoOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** Hides binary floating-point noise (0.1 + 0.2) without rounding real amounts away. */
const tidy = (n: number): number => Number(n.toFixed(8));

export interface BalanceRecord {
  date: string;
  balance: number;
}

export function balancePage(
  bank: BankAccountRecord,
  transactions: Iterable<TransactionRecord>,
  query: { page?: number; pageSize?: number } | undefined,
): Page<BalanceRecord> & { success: true } {
  const perDay = new Map<number, number>();
  for (const tx of transactions) {
    const day = dayNumber(tx.bookingDate);
    perDay.set(day, (perDay.get(day) ?? 0) + tx.amount);
  }
  const days = [...perDay.keys()].sort((a, b) => a - b);
  /** before[i] = sum of amounts booked on days[0..i-1]. */
  const before = [0];
  for (const day of days) before.push((before.at(-1) ?? 0) + (perDay.get(day) ?? 0));
  const sumBefore = (day: number): number => before[lowerBound(days, day, (d) => d)] ?? 0;

  const page = query?.page ?? LIMITS.page.defaultPage;
  const size = query?.pageSize ?? LIMITS.page.defaultPageSize;
  const firstBooking = days[0];
  const lastBooking = days.at(-1);
  const refDay = bank.balanceDate !== null ? dayNumber(bank.balanceDate) : firstBooking;
  if (refDay === undefined || firstBooking === undefined || lastBooking === undefined) {
    // No bookings: a lone reference balance, or nothing at all.
    const data =
      refDay !== undefined && page === 0
        ? [{ date: isoOf(refDay), balance: bank.balanceReference ?? 0 }]
        : [];
    const total = refDay === undefined ? 0 : 1;
    return envelope(page, size, total, data);
  }
  const start = Math.min(firstBooking, refDay);
  const end = Math.max(lastBooking + 1, refDay);
  const total = end - start + 1;
  const offset = (bank.balanceReference ?? 0) - sumBefore(refDay);
  const data: BalanceRecord[] = [];
  for (let day = start + page * size; day <= end && data.length < size; day++) {
    data.push({ date: isoOf(day), balance: tidy(offset + sumBefore(day)) });
  }
  return envelope(page, size, total, data);
}

function envelope(page: number, size: number, total: number, data: BalanceRecord[]) {
  return {
    success: true as const,
    message: 'OK',
    number: page,
    size,
    totalElements: total,
    totalPages: Math.ceil(total / size),
    data,
  };
}
