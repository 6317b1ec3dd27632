/**
 * The account's today (Africa/Lagos, as the tests' accounts) moved by `days`, in the API's three date forms. Pure (no
 * import of the service), so that the black-box tests can date what they send without loading the handlers.
 */
export function dayOf(days: number, timeZone = 'Africa/Lagos') {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(new Date())
    .reduce<Record<string, string>>((all, part) => Object.assign(all, { [part.type]: part.value }), {});
  const date = new Date(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day) + days));
  const pad = (n: number) => String(n).padStart(2, '0');
  const [mm, dd, yyyy] = [pad(date.getUTCMonth() + 1), pad(date.getUTCDate()), String(date.getUTCFullYear())];
  return { monthFirst: `${mm}/${dd}/${yyyy}`, dayFirst: `${dd}/${mm}/${yyyy}`, iso: `${yyyy}-${mm}-${dd}` };
}
