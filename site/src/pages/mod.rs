//! The pages, each a pure function of the [`crate::model::Site`] to its
//! HTML; [`all`] lists every file of the site with its path.
//!
//! Pages never read or write files; [`crate::build`] writes them.

pub mod clause;
pub mod index;
pub mod matrix;
pub mod parser;

use crate::html::STYLE;
use crate::model::Site;

/// Every file of the site: (path under the site's folder, bytes).
pub fn all(site: &Site) -> Vec<(String, Vec<u8>)> {
    let mut out = vec![
        ("style.css".to_string(), STYLE.as_bytes().to_vec()),
        ("index.html".to_string(), index::render(site).into_bytes()),
        ("matrix.html".to_string(), matrix::render(site).into_bytes()),
    ];
    for p in &site.parsers {
        out.push((
            format!("parsers/{}.html", p.slug),
            parser::render(site, p).into_bytes(),
        ));
        if let Some(badge) = &p.badge {
            out.push((
                format!("badges/{}.svg", p.slug),
                badge.svg().into_bytes(),
            ));
        }
    }
    for id in site.clauses.keys() {
        out.push((
            format!("clauses/{}.html", crate::html::slug(id)),
            clause::render(site, id).into_bytes(),
        ));
    }
    out
}
