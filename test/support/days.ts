/** The account's today (Africa/Lagos, as the tests' accounts) moved by `days`, in the API's three date forms. */
import { todayMonthFirst } from './api.ts';

export function dayOf(days: number, timeZone = 'Africa/Lagos') {
  const [month, day, year] = todayMonthFirst(timeZone).split('/').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day + days));
  const pad = (n: number) => String(n).padStart(2, '0');
  const [mm, dd, yyyy] = [pad(date.getUTCMonth() + 1), pad(date.getUTCDate()), String(date.getUTCFullYear())];
  return { monthFirst: `${mm}/${dd}/${yyyy}`, dayFirst: `${dd}/${mm}/${yyyy}`, iso: `${yyyy}-${mm}-${dd}` };
}
