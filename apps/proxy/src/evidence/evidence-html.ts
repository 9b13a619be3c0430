/**
 * The evidence pack as one HTML file that runs nothing: no script, no event attribute, no link,
 * no image, nothing loaded from anywhere (its Content-Security-Policy says so too:
 * `default-src 'none'; style-src 'unsafe-inline'`). Its CSS is inline. Every captured string is
 * HTML-escaped where it is written, so no captured text can become markup; the JSON document is
 * attached at the end, escaped the same way, to copy out.
 */
import type { EvidencePack } from './evidence-document.js';
import { describeFrame, describeParty, statusWords, time } from './evidence-words.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or an attribute value: nothing in it is markup. */
export function esc(text: string | number | undefined): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const STYLE = `
body{font:14px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#1c1c1c}
h1{font-size:1.4rem}h2{font-size:1.15rem;border-bottom:1px solid #ddd;padding-bottom:.2rem;margin-top:2rem}h3{font-size:1rem}
pre{background:#f6f6f6;border:1px solid #e2e2e2;padding:.6rem;overflow:auto;white-space:pre-wrap;word-break:break-all}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.25rem .4rem;text-align:left;vertical-align:top}
.verdict{border-left:4px solid #c0392b;background:#fdf3f2;padding:.4rem .8rem;margin:.8rem 0}.focus{background:#fff7d6}
.warn{color:#a00;font-weight:bold}code{background:#f0f0f0;padding:0 .2rem}blockquote{margin:.4rem 0;padding:.2rem .6rem;border-left:3px solid #999;background:#fafafa;white-space:pre-wrap}
`;

export function evidenceHtml(pack: EvidencePack): string {
  const out: string[] = [];
  out.push('<!doctype html>', '<html lang="en"><head><meta charset="utf-8">');
  out.push(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
  out.push('<meta name="referrer" content="no-referrer">');
  out.push(`<title>Evidence pack: ${esc(pack.title)}</title><style>${STYLE}</style></head><body>`);
  out.push(`<h1>Evidence pack: ${esc(pack.title)}</h1>`);
  out.push(`<p>Written by ${esc(pack.generator)} at ${esc(pack.createdAt)}. ${pack.redaction.enabled ? 'Redacted: credentials and secrets are replaced by [redacted] (rules at the end).' : '<span class="warn">UNREDACTED: this pack may contain tokens, cookies and secrets.</span>'}</p>`);

  out.push('<h2>Verdict</h2>');
  if (pack.verdicts.length === 0) out.push('<p>No verdict: every exchange here ended well (or is still waiting).</p>');
  for (const { exchangeId, verdict } of pack.verdicts) {
    const e = verdict.evidence;
    out.push(`<div class="verdict"><h3>${esc(verdict.title)} (exchange ${esc(exchangeId)}, fix on the ${esc(verdict.fault)} side)</h3><p>${esc(verdict.sentence)}</p>`);
    if (verdict.quote !== undefined) out.push(`<p>What the peer said, as recorded:</p><blockquote>${esc(verdict.quote)}</blockquote>`);
    out.push(`<p><strong>Fix:</strong> ${esc(verdict.fix)}</p>`);
    out.push(`<p>Evidence: frames ${esc(e.frameSeqs.join(', ') || 'none')}; HTTP requests ${esc(e.doorRecordIds.join(', ') || 'none')}; findings ${esc(e.diagnosticCodes.join(', ') || 'none')}${e.latencyMs !== undefined ? `; after ${Math.round(e.latencyMs)} ms` : ''}.</p></div>`);
  }

  out.push('<h2>Who and what</h2>');
  if (pack.conversation) out.push(`<p>Conversation ${esc(pack.conversation.key)} with host ${esc(pack.conversation.host)}, ${esc(time(pack.conversation.firstTs))} to ${esc(time(pack.conversation.lastTs))}.</p>`);
  out.push('<table><tr><th>session</th><th>transport</th><th>revision</th><th>client</th><th>server</th></tr>');
  for (const s of pack.sessions) out.push(`<tr><td>${esc(s.sessionKey)}</td><td>${esc(s.transport)}</td><td>${esc(s.revision ?? 'not negotiated')}</td><td>${esc(describeParty(s.client))}</td><td>${esc(describeParty(s.server))}</td></tr>`);
  out.push('</table>');

  out.push('<h2>Timeline</h2>');
  if (pack.timelineNote) out.push(`<p>An excerpt: ${esc(pack.timelineNote)}.</p>`);
  out.push('<table><tr><th>exchange</th><th>when</th><th>method</th><th>target</th><th>status</th><th>latency</th><th>error</th></tr>');
  for (const ex of pack.timeline) {
    out.push(`<tr${ex.focus ? ' class="focus"' : ''}><td>${esc(ex.id)}</td><td>${esc(time(ex.startTs))}</td><td>${esc(ex.method)}</td><td>${esc(ex.target)}</td><td>${esc(statusWords(ex.status))}</td><td>${ex.latencyMs !== undefined ? `${Math.round(ex.latencyMs)} ms` : ''}</td><td>${esc([ex.errorCode, ex.errorMessage].filter((v) => v !== undefined).join(' '))}</td></tr>`);
  }
  out.push('</table>');

  if (pack.findings.length > 0) {
    out.push('<h2>Findings</h2><ul>');
    for (const f of pack.findings) out.push(`<li>${esc(f.severity)} <code>${esc(f.code)}</code> (exchange ${esc(f.exchangeId)}, frame ${f.frameSeq}): ${esc(f.message)}</li>`);
    out.push('</ul>');
  }

  out.push('<h2>Timings</h2><ul>');
  for (const t of pack.timings) {
    const requests = t.requests.map((r) => `HTTP request ${r.id}: head after ${r.firstByteMs ?? '?'} ms, end after ${r.endMs ?? '?'} ms`).join('; ');
    out.push(`<li>exchange ${esc(t.exchangeId)}: started ${esc(time(t.startTs))}${t.latencyMs !== undefined ? `, answered after ${Math.round(t.latencyMs)} ms` : ', no answer'}${t.progressAt?.length ? `, progress at ${esc(t.progressAt.join(', '))} ms` : ''}${requests ? `; ${esc(requests)}` : ''}</li>`);
  }
  out.push('</ul>');

  out.push('<h2>Frames</h2>');
  out.push(`<p>Each frame's text as included here${pack.redaction.enabled ? ' (after redaction)' : ''}, with the SHA-256 of its UTF-8 bytes. A frame marked "changed by redaction" differs from what was captured, so its checksum is of the redacted text.</p>`);
  for (const f of pack.frames) {
    out.push(`<h3>Frame ${f.seq}: ${esc(describeFrame(f))}</h3>`);
    out.push(`<p>SHA-256 <code>${esc(f.sha256)}</code> (${f.bytes} bytes${f.redacted ? ', changed by redaction' : ', as captured'}${f.cut ? `; the tap kept only the first part of ${esc(f.http?.cut?.size ?? '?')} bytes` : ''})</p>`);
    out.push(`<pre>${esc(f.raw)}</pre>`);
  }

  out.push('<h2>HTTP requests at the tap</h2>');
  if (pack.doorRecords.length === 0) out.push('<p>None recorded (stdio, or a capture from before door records).</p>');
  for (const r of pack.doorRecords) out.push(`<h3>Request ${r.id}: ${esc(`${r.method} ${r.path} → ${r.status ?? 'no status'}`)}</h3><pre>${esc(JSON.stringify(r, null, 2))}</pre>`);

  if (pack.replay) {
    const r = pack.replay;
    out.push('<h2>Control replay</h2>');
    if (r.status !== 'done') out.push(`<p>Not made (${esc(r.status)}): ${esc(r.note)}</p>`);
    else {
      out.push(`<p>Exchange ${esc(r.replayOf)} was sent again in a fresh session to the same server: exchange ${esc(r.exchange?.id ?? '?')}, ${esc(statusWords(r.exchange?.status ?? 'pending'))}.</p>`);
      const c = r.comparison;
      if (c) out.push(`<p>Compared with the captured answer: <strong>${esc(c.verdict)}</strong>${c.difference ? esc(` (${c.difference.kind}${c.difference.path ? ` at ${c.difference.path}` : ''}${c.difference.before !== undefined ? `: ${c.difference.before} → ${c.difference.after ?? ''}` : ''})`) : ''}.</p>`);
    }
  }

  out.push('<h2>Redaction</h2>');
  if (!pack.redaction.enabled) out.push('<p>None: the pack was written unredacted on request.</p>');
  else {
    out.push(`<ul>${pack.redaction.rules.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>`);
    if (pack.redaction.hits.length > 0) out.push(`<p>Replaced: ${esc(pack.redaction.hits.map((h) => `${h.count}× ${h.rule}`).join(', '))}.</p>`);
  }

  out.push('<h2>The pack as JSON</h2>', `<pre>${esc(JSON.stringify(pack, null, 2))}</pre>`);
  out.push('</body></html>', '');
  return out.join('\n');
}
