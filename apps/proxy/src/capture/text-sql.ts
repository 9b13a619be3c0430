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
 *
 * `length` reads the whole text, as LIKE does: over every body of a capture it costs as much as
 * the search itself. A frame's text is looked at once when it is stored (`likeDecides`), so a
 * search of frames stored since asks `length` of none of them.
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

/** Characters of a text on which LIKE and the matcher may disagree for a needle LIKE decides (see above). */
const LIKE_MISREADS = /[\0\u0130\u212A]/;

/**
 * Whether LIKE decides every needle of ASCII characters on `text` as the matcher does: no NUL, and
 * no character whose lower case holds an ASCII one (U+0130 and U+212A are the only two).
 */
export function likeDecidesText(text: string): boolean {
  return !LIKE_MISREADS.test(text);
}

/**
 * SQL true when `column`'s text holds `needle` (lower-cased already, as the filter's free text is)
 * in any case; false or NULL otherwise (a NULL column holds nothing). `decidedColumn`, when given,
 * names a column that is 1 where `likeDecidesText` held for the text when it was stored: such a
 * text is never asked of the matcher's function.
 */
export function containsSql(column: string, needle: string, decidedColumn?: string): TextSql {
  if (!likeDecides(needle)) return { sql: `mcpscope_icontains(${column}, ?)`, params: [needle] };
  const pattern = `%${needle.replace(/[\\%_]/g, '\\$&')}%`;
  const undecided = decidedColumn ? `${decidedColumn} IS NOT 1 AND ` : '';
  return {
    sql: `(${column} LIKE ? ESCAPE '\\' OR (${undecided}length(${column}) < octet_length(${column}) AND mcpscope_icontains(${column}, ?)))`,
    params: [pattern, needle],
  };
}
