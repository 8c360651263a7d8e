//! The bound on YAML alias expansion: the document walked once with aliases expanded,
//! counting nodes against a budget, before the value is built.

use std::cell::Cell;
use std::path::Path;

use crate::error::{FormatError, Result};

/// Walks the document once, counting nodes with aliases expanded, and stops at `budget`.
/// Other errors are left to the parse that follows.
pub(super) fn check_alias_expansion(text: &str, budget: usize, path: &Path) -> Result<()> {
    // Without an alias nothing expands; skip the second walk.
    if !text.contains('*') {
        return Ok(());
    }
    let left = Cell::new(budget);
    let over = Cell::new(false);
    let counter = NodeCounter {
        left: &left,
        over: &over,
    };
    let _ = serde::de::DeserializeSeed::deserialize(
        counter,
        serde_yaml_ng::Deserializer::from_str(text),
    );
    if over.get() {
        return Err(FormatError::TooManyNodes {
            path: path.to_path_buf(),
            limit: budget,
            what: format!(
                "its aliases (*name) expand to more than {budget} values, more than a file \
                 of {} bytes can hold written out (an alias bomb?); it was not parsed: write \
                 the repeated parts out or check that this is the right file",
                text.len()
            ),
        });
    }
    Ok(())
}

/// Counts nodes down from a budget; an error once it is spent.
#[derive(Clone, Copy)]
struct NodeCounter<'a> {
    left: &'a Cell<usize>,
    over: &'a Cell<bool>,
}

impl NodeCounter<'_> {
    fn take<E: serde::de::Error>(self) -> std::result::Result<(), E> {
        match self.left.get().checked_sub(1) {
            Some(n) => {
                self.left.set(n);
                Ok(())
            }
            None => {
                self.over.set(true);
                Err(E::custom("node budget spent"))
            }
        }
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for NodeCounter<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for NodeCounter<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML node")
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_i128<E: serde::de::Error>(self, _: i128) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_u128<E: serde::de::Error>(self, _: u128) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_str<E: serde::de::Error>(self, _: &str) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_bytes<E: serde::de::Error>(self, _: &[u8]) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_none<E: serde::de::Error>(self) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        self.take()?;
        serde::de::DeserializeSeed::deserialize(self, d)
    }
    fn visit_newtype_struct<D: serde::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<(), D::Error> {
        self.take()?;
        serde::de::DeserializeSeed::deserialize(self, d)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<(), A::Error> {
        self.take()?;
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<(), A::Error> {
        self.take()?;
        while map.next_entry_seed(self, self)?.is_some() {}
        Ok(())
    }
    fn visit_enum<A: serde::de::EnumAccess<'de>>(
        self,
        data: A,
    ) -> std::result::Result<(), A::Error> {
        use serde::de::VariantAccess;
        // A tagged node (`!tag value`): the tag, then the value.
        self.take()?;
        let (_, variant) = data.variant::<serde::de::IgnoredAny>()?;
        variant.newtype_variant_seed(self)
    }
}
