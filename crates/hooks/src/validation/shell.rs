//! A small shell lexer and parser: a command line as a list of pipelines joined by `&&`,
//! `||`, `;`, `&` and newlines, each pipeline a list of simple commands (their words, with
//! quotes, escapes, `$(..)`, redirections and comments resolved).

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    Word(String),
    Op(Sep),
    Pipe,
    Paren,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sep {
    And,
    Or,
    Seq,
    Background,
    End,
}

#[derive(Debug)]
pub(super) struct Item {
    pub(super) pipeline: Vec<Vec<String>>,
    pub(super) sep: Sep,
}

pub(super) fn lex(s: &str) -> Vec<Tok> {
    let chars: Vec<char> = s.chars().collect();
    let mut toks = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut i = 0;
    let flush = |word: &mut String, in_word: &mut bool, toks: &mut Vec<Tok>| {
        if *in_word {
            toks.push(Tok::Word(std::mem::take(word)));
            *in_word = false;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' | '\r' => {
                flush(&mut word, &mut in_word, &mut toks);
                i += 1;
            }
            '\\' if chars.get(i + 1) == Some(&'\n') => i += 2,
            '\n' => {
                flush(&mut word, &mut in_word, &mut toks);
                toks.push(Tok::Op(Sep::Seq));
                i += 1;
            }
            '#' if !in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '\'' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    word.push(chars[i]);
                    i += 1;
                }
                i += 1;
            }
            '"' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    }
                    word.push(chars[i]);
                    i += 1;
                }
                i += 1;
            }
            '\\' => {
                in_word = true;
                if let Some(&n) = chars.get(i + 1) {
                    word.push(n);
                }
                i += 2;
            }
            '$' if chars.get(i + 1) == Some(&'(') => {
                // Command substitution: keep it inside the word, balanced.
                in_word = true;
                let mut depth = 0;
                while i < chars.len() {
                    let ch = chars[i];
                    word.push(ch);
                    if ch == '(' {
                        depth += 1;
                    } else if ch == ')' {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    i += 1;
                }
            }
            '`' => {
                in_word = true;
                word.push(c);
                i += 1;
                while i < chars.len() && chars[i] != '`' {
                    word.push(chars[i]);
                    i += 1;
                }
                word.push('`');
                i += 1;
            }
            '>' | '<' => {
                // Redirection: drop it together with its target. A fd number glued in front
                // (`2>`) was collected as a word: drop that too.
                if in_word && word.chars().all(|ch| ch.is_ascii_digit()) {
                    word.clear();
                    in_word = false;
                } else {
                    flush(&mut word, &mut in_word, &mut toks);
                }
                i += 1;
                while i < chars.len() && matches!(chars[i], '>' | '<' | '&' | '|') {
                    i += 1;
                }
                while i < chars.len() && matches!(chars[i], ' ' | '\t') {
                    i += 1;
                }
                // The target word.
                let mut target = String::new();
                while i < chars.len() && !matches!(chars[i], ' ' | '\t' | '\n' | ';' | '&' | '|') {
                    target.push(chars[i]);
                    i += 1;
                }
            }
            '&' => {
                flush(&mut word, &mut in_word, &mut toks);
                if chars.get(i + 1) == Some(&'&') {
                    toks.push(Tok::Op(Sep::And));
                    i += 2;
                } else if chars.get(i + 1) == Some(&'>') {
                    // `&>file`: redirection of both streams.
                    i += 2;
                    while i < chars.len() && matches!(chars[i], '>' | ' ') {
                        i += 1;
                    }
                    while i < chars.len()
                        && !matches!(chars[i], ' ' | '\t' | '\n' | ';' | '&' | '|')
                    {
                        i += 1;
                    }
                } else {
                    toks.push(Tok::Op(Sep::Background));
                    i += 1;
                }
            }
            '|' => {
                flush(&mut word, &mut in_word, &mut toks);
                if chars.get(i + 1) == Some(&'|') {
                    toks.push(Tok::Op(Sep::Or));
                    i += 2;
                } else {
                    toks.push(Tok::Pipe);
                    i += if chars.get(i + 1) == Some(&'&') { 2 } else { 1 };
                }
            }
            ';' => {
                flush(&mut word, &mut in_word, &mut toks);
                toks.push(Tok::Op(Sep::Seq));
                i += if chars.get(i + 1) == Some(&';') { 2 } else { 1 };
            }
            '(' | ')' | '{' | '}' if !in_word => {
                toks.push(Tok::Paren);
                i += 1;
            }
            _ => {
                in_word = true;
                word.push(c);
                i += 1;
            }
        }
    }
    flush(&mut word, &mut in_word, &mut toks);
    toks
}

pub(super) fn parse_list(toks: &[Tok]) -> Vec<Item> {
    let mut items = Vec::new();
    let mut pipeline: Vec<Vec<String>> = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut end_item = |pipeline: &mut Vec<Vec<String>>, words: &mut Vec<String>, sep: Sep| {
        if !words.is_empty() {
            pipeline.push(std::mem::take(words));
        }
        if !pipeline.is_empty() {
            items.push(Item {
                pipeline: std::mem::take(pipeline),
                sep,
            });
        } else if let Some(last) = items.last_mut()
            && sep == Sep::Background
        {
            last.sep = sep;
        }
    };
    for t in toks {
        match t {
            Tok::Word(w) => words.push(w.clone()),
            Tok::Paren => {}
            Tok::Pipe => {
                if !words.is_empty() {
                    pipeline.push(std::mem::take(&mut words));
                }
            }
            Tok::Op(sep) => end_item(&mut pipeline, &mut words, *sep),
        }
    }
    end_item(&mut pipeline, &mut words, Sep::End);
    // A trailing `;` or newline ends the list like its end.
    if let Some(last) = items.last_mut()
        && last.sep == Sep::Seq
    {
        last.sep = Sep::End;
    }
    items
}
