/**
 * The evidence pack as Markdown, readable without mcpscope: the verdicts, the parties, the
 * timeline, the frames, the door records and the replay, then the whole JSON document in a
 * fenced block at the end. Captured text is data: in running text it is escaped so it cannot
 * become a link, an image, HTML or a heading; in code blocks the fence is longer than any run of
 * backticks inside, so a frame cannot close its block.
 */
import type { EvidencePack } from './evidence-document.js';
import { describeFrame, describeParty, statusWords, time } from './evidence-words.js';

/** Captured text in running Markdown: one line, every character Markdown or HTML could act on escaped. */
export function mdText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]()<>#!|~&]/g, (c) => `\\${c}`);
}

/** A fenced block holding `text` as is. */
export function mdFence(text: string, info = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}

export function evidenceMarkdown(pack: EvidencePack): string {
  const out: string[] = [];
  out.push(`# Evidence pack: ${mdText(pack.title)}`, '');
  out.push(`Written by ${mdText(pack.generator)} at ${pack.createdAt}. ${pack.redaction.enabled ? 'Redacted: credentials and secrets are replaced by [redacted] (rules at the end).' : '**UNREDACTED: this pack may contain tokens, cookies and secrets.**'}`, '');

  out.push('## Verdict', '');
  if (pack.verdicts.length === 0) out.push('No verdict: every exchange here ended well (or is still waiting).', '');
  for (const { exchangeId, verdict } of pack.verdicts) {
    out.push(`### ${mdText(verdict.title)} (exchange ${mdText(exchangeId)}, fix on the ${verdict.fault} side)`, '');
    out.push(mdText(verdict.sentence), '');
    if (verdict.quote !== undefined) out.push('What the peer said, as recorded:', '', mdFence(verdict.quote, 'text'), '');
    out.push(`**Fix:** ${mdText(verdict.fix)}`, '');
    const e = verdict.evidence;
    out.push(`Evidence: frames ${e.frameSeqs.join(', ') || 'none'}; HTTP requests ${e.doorRecordIds.join(', ') || 'none'}; findings ${e.diagnosticCodes.map(mdText).join(', ') || 'none'}${e.latencyMs !== undefined ? `; after ${Math.round(e.latencyMs)} ms` : ''}.`, '');
  }

  out.push('## Who and what', '');
  if (pack.conversation) out.push(`Conversation ${mdText(pack.conversation.key)} with host ${mdText(pack.conversation.host)}, ${time(pack.conversation.firstTs)} to ${time(pack.conversation.lastTs)}.`, '');
  out.push('| session | transport | revision | client | server |', '| --- | --- | --- | --- | --- |');
  for (const s of pack.sessions) out.push(`| ${mdText(s.sessionKey)} | ${mdText(s.transport)} | ${mdText(s.revision ?? 'not negotiated')} | ${mdText(describeParty(s.client))} | ${mdText(describeParty(s.server))} |`);
  out.push('');

  out.push('## Timeline', '');
  if (pack.timelineNote) out.push(`An excerpt: ${mdText(pack.timelineNote)}.`, '');
  out.push('| exchange | when | method | target | status | latency | error |', '| --- | --- | --- | --- | --- | --- | --- |');
  for (const ex of pack.timeline) {
    const id = ex.focus ? `**${mdText(ex.id)}**` : mdText(ex.id);
    out.push(`| ${id} | ${time(ex.startTs)} | ${mdText(ex.method ?? '')} | ${mdText(ex.target ?? '')} | ${statusWords(ex.status)} | ${ex.latencyMs !== undefined ? `${Math.round(ex.latencyMs)} ms` : ''} | ${mdText([ex.errorCode, ex.errorMessage].filter((v) => v !== undefined).join(' '))} |`);
  }
  out.push('');

  if (pack.findings.length > 0) {
    out.push('## Findings', '');
    for (const f of pack.findings) out.push(`- ${f.severity} \`${f.code.replace(/`/g, '')}\` (exchange ${mdText(f.exchangeId)}, frame ${f.frameSeq}): ${mdText(f.message)}`);
    out.push('');
  }

  out.push('## Timings', '');
  for (const t of pack.timings) {
    const requests = t.requests.map((r) => `HTTP request ${r.id}: head after ${r.firstByteMs ?? '?'} ms, end after ${r.endMs ?? '?'} ms`).join('; ');
    out.push(`- exchange ${mdText(t.exchangeId)}: started ${time(t.startTs)}${t.latencyMs !== undefined ? `, answered after ${Math.round(t.latencyMs)} ms` : ', no answer'}${t.progressAt?.length ? `, progress at ${t.progressAt.join(', ')} ms` : ''}${requests ? `; ${requests}` : ''}`);
  }
  out.push('');

  out.push('## Frames', '');
  out.push(`Each frame's text as included here${pack.redaction.enabled ? ' (after redaction)' : ''}, with the SHA-256 of its UTF-8 bytes. A frame marked "changed by redaction" differs from what was captured, so its checksum is of the redacted text. The JSON at the end holds each text exactly.`, '');
  for (const f of pack.frames) {
    out.push(`### Frame ${f.seq}: ${mdText(describeFrame(f))}`, '');
    out.push(`- SHA-256: \`${f.sha256}\` (${f.bytes} bytes${f.redacted ? ', changed by redaction' : ', as captured'}${f.cut ? `; the tap kept only the first part of ${f.http?.cut?.size ?? '?'} bytes` : ''})`, '');
    out.push(mdFence(f.raw, f.kind === 'data' ? 'json' : 'text'), '');
  }

  out.push('## HTTP requests at the tap', '');
  if (pack.doorRecords.length === 0) out.push('None recorded (stdio, or a capture from before door records).', '');
  for (const r of pack.doorRecords) out.push(`### Request ${r.id}: ${mdText(`${r.method} ${r.path} → ${r.status ?? 'no status'}`)}`, '', mdFence(JSON.stringify(r, null, 2), 'json'), '');

  if (pack.replay) {
    const r = pack.replay;
    out.push('## Control replay', '');
    if (r.status !== 'done') out.push(`Not made (${r.status}): ${mdText(r.note ?? '')}`, '');
    else {
      out.push(`Exchange ${mdText(r.replayOf)} was sent again in a fresh session to the same server: exchange ${mdText(r.exchange?.id ?? '?')}, ${statusWords(r.exchange?.status ?? 'pending')}.`, '');
      const c = r.comparison;
      if (c) out.push(`Compared with the captured answer: **${c.verdict}**${c.difference ? ` (${c.difference.kind}${c.difference.path ? ` at ${mdText(c.difference.path)}` : ''}${c.difference.before !== undefined ? `: ${mdText(c.difference.before)} → ${mdText(c.difference.after ?? '')}` : ''})` : ''}.`, '');
    }
  }

  out.push('## Redaction', '');
  if (!pack.redaction.enabled) out.push('None: the pack was written unredacted on request.', '');
  else {
    out.push(...pack.redaction.rules.map((r) => `- ${mdText(r)}`), '');
    if (pack.redaction.hits.length > 0) out.push(`Replaced: ${pack.redaction.hits.map((h) => `${h.count}× ${mdText(h.rule)}`).join(', ')}.`, '');
  }

  out.push('## The pack as JSON', '', mdFence(JSON.stringify(pack, null, 2), 'json'), '');
  return out.join('\n');
}
