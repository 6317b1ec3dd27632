/**
 * The hosted page's rules for paying (docs/getting-paid-online.md "The pay button"): the notice, the pay button, the
 * payments list and the PAID mark. Part of the page's one stylesheet (./page-style.ts), so one hash allows it.
 */
export const PAYMENT_STYLE = `
.notice{background:#eff6ff;border:1px solid #bfdbfe;border-radius:8px;padding:12px 16px;margin-bottom:16px}
.notice h2{margin:0 0 6px;color:#1e3a8a}
.notice.received{background:#f0fdf4;border-color:#bbf7d0}
.notice.received h2{color:#166534}
.pay-online{margin-top:20px}
.pay-online button{font:inherit;font-size:17px;font-weight:700;padding:12px 20px;border:0;border-radius:6px;background:#15803d;color:#fff;cursor:pointer;width:100%;max-width:320px}
.pay-online p{margin-top:6px;font-size:13px}
.receipts{list-style:none;margin:0;padding:0}
.receipt{display:flex;flex-wrap:wrap;justify-content:space-between;gap:4px 12px;padding:6px 0;border-bottom:1px solid #f3f4f6}
.receipt del{display:flex;flex-wrap:wrap;justify-content:space-between;gap:4px 12px;flex:1;color:#6b7280}
.receipt .refund{flex-basis:100%;font-size:13px}
.paid-on{margin-left:8px;font-weight:700;color:#166534}
@media print{.pay-online,.notice{display:none}}
`.trim();
