/**
 * "Contains this free text" in SQL, with the matcher's meaning (the text lower-cased as
 * JavaScript does, then a substring test) and SQLite's own LIKE wherever that meaning allows it, so
 * a search over every body runs in SQLite's loop instead of calling into JavaScript per text.
 *
 * Why LIKE is exact for a needle of ASCII characters (other than NUL), on a text of ASCII
 * characters: LIKE folds ASCII case and compares everything else as it is, so a match is a run of
 * the text's characters equal to the needle's after ASCII lower-casing, as in JavaScript.
 * JavaScript differs only where a text holds other characters: two lower-case to ASCII letters
 * (U+0130 → "i̇", U+212A → "k"), and LIKE stops at a NUL character. A text with any character
 * outside ASCII, or a NUL, has fewer characters before its first NUL (`length`) than bytes
 * (`octet_length`): only such texts, when LIKE finds nothing, are asked of the matcher's function.
 * A needle with any other character is decided by that function alone.
 */
export interface TextSql {
  sql: string;
  params: string[];
}

/** Longest needle given to LIKE (SQLite refuses patterns over 50,000 bytes). */
const LIKE_MAX = 10_000;

/** Whether LIKE decides `needle`: ASCII without NUL, within LIKE's length. */
function likeDecides(needle: string): boolean {
  if (needle.length > LIKE_MAX) return false;
  for (let i = 0; i < needle.length; i++) {
    const code = needle.charCodeAt(i);
    if (code === 0 || code > 0x7f) return false;
  }
  return true;
}

/**
 * SQL true when `column`'s text holds `needle` (lower-cased already, as the filter's free text is)
 * in any case; false or NULL otherwise (a NULL column holds nothing).
 */
export function containsSql(column: string, needle: string): TextSql {
  if (!likeDecides(needle)) return { sql: `mcpscope_icontains(${column}, ?)`, params: [needle] };
  const pattern = `%${needle.replace(/[\\%_]/g, '\\$&')}%`;
  return {
    sql: `(${column} LIKE ? ESCAPE '\\' OR (length(${column}) < octet_length(${column}) AND mcpscope_icontains(${column}, ?)))`,
    params: [pattern, needle],
  };
}
