/**
 * Telegram's "HTML style" formatting, as the Bot API documents it (https://core.telegram.org/bots/api#html-style), for
 * the sandbox simulator: a message sent with parse_mode "HTML" is parsed into its plain text and entities
 * (https://core.telegram.org/bots/api#messageentity), and what Telegram refuses is refused with its words. The
 * documented rules this follows:
 * - the supported tags are b/strong, i/em, u/ins, s/strike/del, span class="tg-spoiler" and tg-spoiler, a href,
 *   code, pre (optionally holding code class="language-..."), blockquote (optionally expandable) and tg-emoji;
 * - "All <, > and & symbols that are not a part of a tag or an HTML entity must be replaced with the corresponding HTML
 *   entities"; only the named entities &lt; &gt; &amp; &quot; are supported, and every numerical one.
 * A "<" that starts no supported tag is refused (400 "can't parse entities"), as Telegram refuses it, so a name with
 * "<b>" or "<a href=...>" in it that reached a message unescaped fails here, which is how the markup-injection tests
 * see it; a lone ">" or "&" is kept as text (Telegram's parser is lenient there).
 */

export interface MessageEntity {
  type: "bold" | "italic" | "underline" | "strikethrough" | "spoiler" | "code" | "pre" | "text_link" | "blockquote" | "custom_emoji";
  offset: number;
  length: number;
  url?: string;
  language?: string;
}

export type Parsed = { ok: true; text: string; entities: MessageEntity[] } | { ok: false; description: string };

const TAGS: Record<string, MessageEntity["type"]> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  span: "spoiler",
  a: "text_link",
  code: "code",
  pre: "pre",
  blockquote: "blockquote",
  "tg-emoji": "custom_emoji",
};

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

function byteOffset(source: string, index: number): number {
  return new TextEncoder().encode(source.slice(0, index)).length;
}

export function parseTelegramHtml(source: string): Parsed {
  let text = "";
  const entities: MessageEntity[] = [];
  const open: { name: string; start: number; entity: MessageEntity }[] = [];
  const fail = (description: string): Parsed => ({ ok: false, description: `Bad Request: can't parse entities: ${description}` });
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (ch === "&") {
      const m = /^&(#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]+);/.exec(source.slice(i));
      if (m) {
        const name = m[1];
        if (name.startsWith("#")) {
          const code = name[1] === "x" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
          text += String.fromCodePoint(code > 0x10ffff ? 0xfffd : code);
          i += m[0].length;
          continue;
        }
        if (NAMED[name] === undefined) return fail(`Unsupported HTML entity "&${name};" at byte offset ${byteOffset(source, i)}`);
        text += NAMED[name];
        i += m[0].length;
        continue;
      }
      // A lone & that starts no entity is kept as it is.
      text += ch;
      i += 1;
      continue;
    }
    if (ch !== "<") {
      text += ch;
      i += 1;
      continue;
    }
    const end = source.indexOf(">", i);
    if (end < 0) return fail(`Unclosed start tag at byte offset ${byteOffset(source, i)}`);
    const inside = source.slice(i + 1, end);
    const closing = inside.startsWith("/");
    const m = /^\/?([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z-]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*$/.exec(inside);
    if (!m) return fail(`Unsupported start tag "${inside.split(/\s/)[0] ?? ""}" at byte offset ${byteOffset(source, i)}`);
    const name = m[1].toLowerCase();
    const type = TAGS[name];
    if (!type) return fail(`Unsupported start tag "${name}" at byte offset ${byteOffset(source, i)}`);
    if (closing) {
      const top = open.pop();
      if (!top || top.name !== name) return fail(`Unmatched end tag at byte offset ${byteOffset(source, i)}, expected "</${top?.name ?? ""}>", found "</${name}>"`);
      top.entity.length = text.length - top.start;
      if (top.entity.length > 0) entities.push(top.entity);
    } else {
      const attrs = Object.fromEntries([...m[2].matchAll(/([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)].map((a) => [a[1].toLowerCase(), a[2] ?? a[3] ?? a[4] ?? ""]));
      if (name === "span" && attrs.class !== "tg-spoiler") return fail(`Unsupported start tag "span" at byte offset ${byteOffset(source, i)}`);
      const entity: MessageEntity = { type, offset: text.length, length: 0 };
      if (name === "a") {
        if (!attrs.href) return fail(`Can't find href in tag "a" at byte offset ${byteOffset(source, i)}`);
        entity.url = attrs.href;
      }
      open.push({ name, start: text.length, entity });
    }
    i = end + 1;
  }
  if (open.length > 0) return fail(`Can't find end tag corresponding to start tag "${open[open.length - 1].name}"`);
  entities.sort((a, b) => a.offset - b.offset);
  return { ok: true, text, entities };
}
