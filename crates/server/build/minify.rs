//! A small, safe size reduction of the web client's JavaScript and CSS, run by `build.rs`:
//! comments, indentation, trailing spaces and blank lines go; everything else stays byte for byte,
//! line breaks included (so automatic semicolon insertion reads the code as before). Strings,
//! template literals (with their `${…}`) and regular expression literals are copied untouched.
//!
//! Compiled into the build script, and into the server's tests (`cargo test -p dames-server`).

/// What the scanner is inside of.
#[derive(Clone, Copy, PartialEq, Eq)]
enum In {
    Code,
    /// A quoted string with its quote.
    Str(u8),
    Template,
    Regex {
        class: bool,
    },
}

/// `source` (JavaScript) without comments, indentation and blank lines.
pub fn js(source: &str) -> String {
    let b = source.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut state = In::Code;
    // Brace depth of each `${` opened inside a template, innermost last.
    let mut templates: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match state {
            In::Code => {
                if c == b'/' && b.get(i + 1) == Some(&b'/') {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                if c == b'/' && b.get(i + 1) == Some(&b'*') {
                    let end = source[i + 2..]
                        .find("*/")
                        .map_or(b.len(), |e| i + 2 + e + 2);
                    let newline = source[i..end].contains('\n');
                    i = end;
                    if newline && !matches!(out.last(), None | Some(b'\n')) {
                        trim_line_end(&mut out);
                        out.push(b'\n');
                    }
                    if matches!(out.last(), None | Some(b'\n' | b' ' | b'\t')) {
                        while i < b.len() && matches!(b[i], b' ' | b'\t') {
                            i += 1;
                        }
                    } else if !matches!(b.get(i), None | Some(b' ' | b'\t' | b'\n')) {
                        out.push(b' '); // `a/**/b` must stay two tokens
                    }
                    continue;
                }
                match c {
                    b'\'' | b'"' => state = In::Str(c),
                    b'`' => state = In::Template,
                    b'/' if regex_allowed(&out) => state = In::Regex { class: false },
                    b'{' => depth += 1,
                    b'}' => {
                        if templates.last() == Some(&depth) {
                            templates.pop();
                            state = In::Template;
                        } else {
                            depth = depth.saturating_sub(1);
                        }
                    }
                    b'\n' => {
                        trim_line_end(&mut out);
                        if !out.is_empty() && out.last() != Some(&b'\n') {
                            out.push(b'\n');
                        }
                        i += 1;
                        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                            i += 1;
                        }
                        continue;
                    }
                    _ => {}
                }
                out.push(c);
                i += 1;
            }
            In::Str(q) => {
                out.push(c);
                i += 1;
                if c == b'\\' && i < b.len() {
                    out.push(b[i]);
                    i += 1;
                } else if c == q || c == b'\n' {
                    state = In::Code;
                }
            }
            In::Template => {
                out.push(c);
                i += 1;
                if c == b'\\' && i < b.len() {
                    out.push(b[i]);
                    i += 1;
                } else if c == b'`' {
                    state = In::Code;
                } else if c == b'$' && b.get(i) == Some(&b'{') {
                    out.push(b'{');
                    i += 1;
                    templates.push(depth);
                    state = In::Code;
                }
            }
            In::Regex { class } => {
                out.push(c);
                i += 1;
                if c == b'\\' && i < b.len() {
                    out.push(b[i]);
                    i += 1;
                } else if c == b'[' {
                    state = In::Regex { class: true };
                } else if c == b']' && class {
                    state = In::Regex { class: false };
                } else if (c == b'/' && !class) || c == b'\n' {
                    state = In::Code;
                }
            }
        }
    }
    trim_line_end(&mut out);
    if !matches!(out.last(), None | Some(b'\n')) {
        out.push(b'\n');
    }
    String::from_utf8(out).expect("only ASCII bytes were removed")
}

/// `source` (CSS) without comments, indentation and blank lines.
pub fn css(source: &str) -> String {
    let mut text = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(start) = rest.find("/*") {
        text.push_str(&rest[..start]);
        rest = rest[start..]
            .find("*/")
            .map_or("", |end| &rest[start + end + 2..]);
    }
    text.push_str(rest);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join("\n")
}

fn trim_line_end(out: &mut Vec<u8>) {
    while matches!(out.last(), Some(b' ') | Some(b'\t') | Some(b'\r')) {
        out.pop();
    }
}

/// Whether a `/` here starts a regular expression rather than a division: after an operator,
/// an opening bracket, a separator, a keyword that takes an expression, or at the start.
fn regex_allowed(out: &[u8]) -> bool {
    let code = out.trim_ascii_end();
    let Some(&last) = code.last() else {
        return true;
    };
    if b"(,=:[!&|?{};+-*%<>~^\n".contains(&last) {
        return true;
    }
    let word_start = code
        .iter()
        .rposition(|c| !(c.is_ascii_alphanumeric() || *c == b'_' || *c == b'$'))
        .map_or(0, |p| p + 1);
    let word = &code[word_start..];
    [
        &b"return"[..],
        b"typeof",
        b"case",
        b"do",
        b"else",
        b"in",
        b"of",
        b"new",
        b"delete",
        b"void",
        b"throw",
        b"yield",
        b"await",
    ]
    .contains(&word)
}

#[cfg(test)]
mod tests {
    use super::{css, js};

    #[test]
    fn comments_and_indentation_go_line_breaks_stay() {
        let src = "// @ts-check\n/** Doc. */\nexport function f(a) {\n  // note\n  const b = a; /* inline */ return b;\n}\n\n\nf(1)\n";
        assert_eq!(
            js(src),
            "export function f(a) {\nconst b = a; return b;\n}\nf(1)\n"
        );
    }

    #[test]
    fn jsdoc_casts_leave_the_expression() {
        let src = "const app = /** @type {HTMLElement} */ (document.getElementById('app'));\n";
        assert_eq!(js(src), "const app = (document.getElementById('app'));\n");
    }

    #[test]
    fn strings_keep_what_looks_like_comments() {
        let src = "const u = 'http://x/*y*/'; const v = \"// no\";\n";
        assert_eq!(js(src), src);
    }

    #[test]
    fn templates_keep_their_lines_and_nested_code() {
        let src =
            "const t = `a\n  // kept\n  ${x ? `in ${y /* c */}` : '}'} /* kept */`;\n  // gone\n";
        assert_eq!(
            js(src),
            "const t = `a\n  // kept\n  ${x ? `in ${y }` : '}'} /* kept */`;\n"
        );
    }

    #[test]
    fn regular_expressions_are_not_comments_nor_divisions() {
        let src = "const r = s.replace(/ ([?!:;»])/g, '$1').replace(/\\/\\/+$/, '');\nconst d = a / b / c; // half\nif (ok) return /[/*]/.test(s);\n";
        assert_eq!(
            js(src),
            "const r = s.replace(/ ([?!:;»])/g, '$1').replace(/\\/\\/+$/, '');\nconst d = a / b / c;\nif (ok) return /[/*]/.test(s);\n"
        );
    }

    #[test]
    fn multi_line_block_comments_keep_a_line_break() {
        assert_eq!(js("a = 1 /* x\n y */ b = 2\n"), "a = 1\nb = 2\n");
    }

    #[test]
    fn css_without_comments_and_indentation() {
        let src = "/* top */\n:root {\n  --bg: #fff; /* page */\n}\n\n.a { color: red; }\n";
        assert_eq!(css(src), ":root {\n--bg: #fff;\n}\n.a { color: red; }");
    }
}
