//! String measures of the pair loop without allocation. Folded names, streets and cities are
//! short ASCII: for those the measures run on stack buffers (strsim allocates its flags and rows
//! on every call, and the pair loop calls them millions of times); anything longer or not ASCII
//! goes to strsim, which gives the same values.

/// Longest string measured on the stack.
const MAX: usize = 48;

fn short_ascii(a: &str, b: &str) -> bool {
    a.len() <= MAX && b.len() <= MAX && a.is_ascii() && b.is_ascii()
}

/// Jaro-Winkler similarity, as `strsim::jaro_winkler` computes it.
pub fn jaro_winkler(a: &str, b: &str) -> f64 {
    if !short_ascii(a, b) {
        return strsim::jaro_winkler(a, b);
    }
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let sim = jaro(a, b);
    if sim > 0.7 {
        let prefix = a.iter().take(4).zip(b).take_while(|(x, y)| x == y).count();
        sim + 0.1 * prefix as f64 * (1.0 - sim)
    } else {
        sim
    }
}

fn jaro(a: &[u8], b: &[u8]) -> f64 {
    let (la, lb) = (a.len(), b.len());
    if la == 0 && lb == 0 {
        return 1.0;
    }
    if la == 0 || lb == 0 {
        return 0.0;
    }
    let range = (la.max(lb) / 2).saturating_sub(1);
    let mut a_flags = [false; MAX];
    let mut b_flags = [false; MAX];
    let mut matches = 0usize;
    for (i, &x) in a.iter().enumerate() {
        let low = i.saturating_sub(range);
        let high = lb.min(i + range + 1);
        for j in low..high {
            if !b_flags[j] && b[j] == x {
                a_flags[i] = true;
                b_flags[j] = true;
                matches += 1;
                break;
            }
        }
    }
    if matches == 0 {
        return 0.0;
    }
    let mut transpositions = 0usize;
    let mut j = 0;
    for (i, &x) in a.iter().enumerate() {
        if a_flags[i] {
            while !b_flags[j] {
                j += 1;
            }
            if b[j] != x {
                transpositions += 1;
            }
            j += 1;
        }
    }
    let m = matches as f64;
    (m / la as f64 + m / lb as f64 + (matches - transpositions / 2) as f64 / m) / 3.0
}

/// Optimal string alignment distance (edits, adjacent swaps counted once), as
/// `strsim::osa_distance` computes it.
pub fn osa_distance(a: &str, b: &str) -> usize {
    if !short_ascii(a, b) {
        return strsim::osa_distance(a, b);
    }
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (la, lb) = (a.len(), b.len());
    if la == 0 || lb == 0 {
        return la.max(lb);
    }
    // Three rows: two back (for the swap), previous, current. Distances fit a byte (MAX < 255),
    // so moving to the next row swaps three small arrays.
    let mut two = [0u8; MAX + 1];
    let mut prev = [0u8; MAX + 1];
    let mut cur = [0u8; MAX + 1];
    for (j, p) in prev.iter_mut().enumerate().take(lb + 1) {
        *p = j as u8;
    }
    for i in 0..la {
        cur[0] = i as u8 + 1;
        for j in 0..lb {
            let cost = u8::from(a[i] != b[j]);
            let mut d = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
            if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                d = d.min(two[j - 1] + 1);
            }
            cur[j + 1] = d;
        }
        std::mem::swap(&mut two, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    usize::from(prev[lb])
}

/// The string without its spaces, on the stack when it is short (`CORSO BUENOS AIRES` →
/// `CORSOBUENOSAIRES`), so that a comparison of compact forms allocates nothing.
pub struct Compact {
    buf: [u8; MAX],
    len: usize,
    long: Option<String>,
}

impl Compact {
    pub fn new(s: &str) -> Compact {
        let mut c = Compact {
            buf: [0; MAX],
            len: 0,
            long: None,
        };
        if s.len() <= MAX && s.is_ascii() {
            for &b in s.as_bytes().iter().filter(|&&b| b != b' ') {
                c.buf[c.len] = b;
                c.len += 1;
            }
        } else {
            c.long = Some(s.replace(' ', ""));
        }
        c
    }

    pub fn as_str(&self) -> &str {
        match &self.long {
            Some(s) => s,
            // Only ASCII bytes were copied.
            None => std::str::from_utf8(&self.buf[..self.len]).unwrap_or(""),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_values_as_strsim() {
        let words = [
            "",
            "A",
            "ROSSI",
            "ROSSO",
            "ROSIS",
            "YASMIN",
            "YSAIN",
            "LUCA",
            "LUC",
            "MARTHA",
            "MARHTA",
            "DIXON",
            "DICKSONX",
            "GIOVANNIBATTISTA",
            "GIANBATTISTA",
            "WALLABY PLACE",
            "WALLABYPL",
            "NICCOLÒ",
            "NICOLÒ",
            "CORSO BUENOS AIRES",
            "CORSO BUENOS AIRSE",
        ];
        for a in words {
            for b in words {
                assert_eq!(osa_distance(a, b), strsim::osa_distance(a, b), "{a} {b}");
                let (x, y) = (jaro_winkler(a, b), strsim::jaro_winkler(a, b));
                assert!((x - y).abs() < 1e-12, "{a} {b}: {x} {y}");
            }
        }
    }

    #[test]
    fn compact_forms() {
        assert_eq!(
            Compact::new("CORSO BUENOS AIRES").as_str(),
            "CORSOBUENOSAIRES"
        );
        assert_eq!(Compact::new("SAN LÒ").as_str(), "SANLÒ");
    }
}
