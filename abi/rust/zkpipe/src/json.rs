//! The little JSON that proof.json and public.json need: a parser into a tree (numbers
//! kept as their text, since field elements are wider than any machine number).
//! Writing is done by the callers, whose output shape is fixed.
use crate::error::{Error, Result};

#[derive(Debug, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    pub(crate) fn parse(text: &str) -> Result<Json> {
        let mut p = Parser { s: text.as_bytes(), i: 0 };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(p.error("trailing characters"));
        }
        Ok(v)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// A string or a number's text: snarkjs writes field elements as strings, others as numbers.
    pub(crate) fn as_text(&self) -> Option<&str> {
        match self {
            Json::String(s) | Json::Number(s) => Some(s),
            _ => None,
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> Error {
        Error::Decode(format!("JSON: {what} at byte {}", self.i))
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn literal(&mut self, word: &str, v: Json) -> Result<Json> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.error("unknown literal"))
        }
    }

    fn value(&mut self) -> Result<Json> {
        self.ws();
        match self.s.get(self.i) {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                while self.i < self.s.len() && matches!(self.s[self.i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                    self.i += 1;
                }
                Ok(Json::Number(String::from_utf8_lossy(&self.s[start..self.i]).into_owned()))
            }
            _ => Err(self.error("expected a value")),
        }
    }

    fn array(&mut self) -> Result<Json> {
        self.i += 1;
        let mut items = Vec::new();
        if self.eat(b']') {
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value()?);
            if self.eat(b']') {
                return Ok(Json::Array(items));
            }
            if !self.eat(b',') {
                return Err(self.error("expected , or ]"));
            }
        }
    }

    fn object(&mut self) -> Result<Json> {
        self.i += 1;
        let mut fields = Vec::new();
        if self.eat(b'}') {
            return Ok(Json::Object(fields));
        }
        loop {
            self.ws();
            if self.s.get(self.i) != Some(&b'"') {
                return Err(self.error("expected a key"));
            }
            let key = self.string()?;
            if !self.eat(b':') {
                return Err(self.error("expected :"));
            }
            fields.push((key, self.value()?));
            if self.eat(b'}') {
                return Ok(Json::Object(fields));
            }
            if !self.eat(b',') {
                return Err(self.error("expected , or }"));
            }
        }
    }

    // Escapes other than \" \\ \/ and the letter escapes do not occur in snarkjs files;
    // \uXXXX is decoded for completeness (without surrogate pairs).
    fn string(&mut self) -> Result<String> {
        self.i += 1;
        let mut out = Vec::new();
        while let Some(&c) = self.s.get(self.i) {
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|_| self.error("invalid UTF-8")),
                b'\\' => {
                    let e = *self.s.get(self.i).ok_or_else(|| self.error("unfinished escape"))?;
                    self.i += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let hex = self.s.get(self.i..self.i + 4).ok_or_else(|| self.error("short \\u"))?;
                            let code = u32::from_str_radix(std::str::from_utf8(hex).unwrap_or("x"), 16)
                                .map_err(|_| self.error("bad \\u"))?;
                            self.i += 4;
                            let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                            out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
                        }
                        other => out.push(other),
                    }
                }
                other => out.push(other),
            }
        }
        Err(self.error("unterminated string"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_snarkjs_shaped_document() {
        let j = Json::parse(r#" {"pi_a": ["1", "2"], "n": 3, "ok": true, "x": null, "s": "a\"\u0041"} "#).unwrap();
        let a = j.get("pi_a").unwrap().as_array().unwrap();
        assert_eq!(a.iter().map(|v| v.as_text().unwrap()).collect::<Vec<_>>(), ["1", "2"]);
        assert_eq!(j.get("n").unwrap().as_text(), Some("3"));
        assert_eq!(j.get("ok"), Some(&Json::Bool(true)));
        assert_eq!(j.get("x"), Some(&Json::Null));
        assert_eq!(j.get("s").unwrap().as_text(), Some("a\"A"));
        assert_eq!(j.get("missing"), None);
    }

    #[test]
    fn refuses_malformed_documents() {
        for bad in ["", "[1,", "{\"a\" 1}", "[1] x", "\"open", "{1: 2}", "nul"] {
            assert!(Json::parse(bad).is_err(), "{bad:?} parsed");
        }
    }
}
