/**
 * The one stylesheet of the hosted pages (docs/sending-invoices.md "The hosted page"): inline, so the page loads
 * nothing else, and allowed by its hash in the Content-Security-Policy (no `unsafe-inline`, no style attributes).
 * Phones first (360 px), a wider layout from 640 px, and a print layout without the links and colours. An amount
 * never wraps inside itself: where it does not fit beside its label (the largest amounts on a phone), it moves to the
 * line below, still right-aligned.
 */
import { createHash } from 'node:crypto';
import { PAYMENT_STYLE } from './payment-style.ts';

export const PAGE_STYLE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f3f4f6;color:#111827;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif}
main{max-width:820px;margin:0 auto;padding:16px}
.sheet{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:20px}
h1{font-size:22px;margin:0 0 4px;overflow-wrap:anywhere}
h2{font-size:13px;text-transform:uppercase;letter-spacing:.05em;color:#6b7280;margin:24px 0 8px}
p{margin:0}
.muted{color:#4b5563}
.top{display:flex;flex-direction:column;gap:16px}
.from p,.to p{overflow-wrap:anywhere}
.logo{display:block;max-width:200px;max-height:64px;width:auto;height:auto;margin:0 0 8px}
dl{margin:0;display:grid;grid-template-columns:auto 1fr;gap:2px 12px}
dt{color:#6b7280}
dd{margin:0;overflow-wrap:anywhere}
.status{display:inline-block;padding:2px 10px;border-radius:999px;font-weight:600;font-size:13px}
.status-paid{background:#dcfce7;color:#166534}
.status-unpaid{background:#e0e7ff;color:#3730a3}
.status-partially_paid{background:#fef9c3;color:#854d0e}
.status-overdue{background:#fee2e2;color:#991b1b}
.status-void{background:#e5e7eb;color:#374151}
table{width:100%;border-collapse:collapse;margin-top:4px}
th{font-size:13px;color:#6b7280;font-weight:600;text-align:left;border-bottom:1px solid #e5e7eb;padding:6px 4px}
td{padding:8px 4px;border-bottom:1px solid #f3f4f6;vertical-align:top}
.num{text-align:right;white-space:nowrap}
.item-name{font-weight:600;overflow-wrap:anywhere}
.item-description{color:#4b5563;font-size:14px;overflow-wrap:anywhere;white-space:pre-line}
.notes{overflow-wrap:anywhere;white-space:pre-line}
.totals{margin:16px 0 0 auto;max-width:320px}
.totals dl{display:block}
.totals dl>div{display:flex;flex-wrap:wrap;align-items:baseline;column-gap:12px;margin-top:2px}
.totals dd{margin-left:auto;text-align:right;white-space:nowrap}
.due{font-weight:700;font-size:18px;color:#111827}
.pay{background:#f9fafb;border:1px solid #e5e7eb;border-radius:6px;padding:12px}
.pay p{margin-top:8px}
.pay .transfer{margin:0 0 8px;overflow-wrap:anywhere}
.actions{margin-top:20px}
.actions a{display:inline-block;padding:10px 16px;border-radius:6px;background:#111827;color:#fff;text-decoration:none;font-weight:600}
footer{margin-top:16px;font-size:13px;color:#6b7280;text-align:center}
@media (max-width:639px){
thead{display:none}
tr{display:flex;flex-wrap:wrap;align-items:baseline;column-gap:12px;border-bottom:1px solid #e5e7eb;padding:8px 0}
td{border:0;padding:2px 0}
td.item,td.qty{flex:1 0 100%}
td.qty::before{content:"Qty "}
td.unit::before{content:"Unit cost "}
td.qty,td.unit{text-align:left;color:#4b5563;font-size:14px}
td.line{margin-left:auto;font-weight:600}
}
@media (min-width:640px){
main{padding:32px 16px}
.sheet{padding:32px}
.top{flex-direction:row;justify-content:space-between}
.meta{text-align:right}
.meta dl{grid-template-columns:1fr auto}
}
@media print{
body{background:#fff;font-size:12px}
main{max-width:none;padding:0}
.sheet{border:0;padding:0}
.actions,footer{display:none}
.status{border:1px solid #374151;background:none;color:#111827}
tr{break-inside:avoid}
}
${PAYMENT_STYLE}
`.trim();

/** The CSP source that allows exactly PAGE_STYLE: `'sha256-<base64>'`. */
export const PAGE_STYLE_SOURCE = `'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`;
