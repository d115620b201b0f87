//! The weight table as a whole: its length, the defaults, and every weight by flat index and by
//! name. It reads the families' order from the evaluation's root module (`FAMILIES`)
//! and nothing reads it but through [`Weights`]' methods: the top of the evaluation's layers.

use super::FAMILIES;
use super::score::S;
use super::weights::{Placed, UnknownWeight, WeightSpec, Weights};

/// The families in table order, in memory (what [`Weights::fields`] walks).
static TABLE: &[Placed] = FAMILIES;

// Each family starts where the one before it ends, the first at 0.
const _: () = assert!(super::weights::contiguous(FAMILIES));

/// One past the last pair of the last family.
const END: usize = {
    let last = FAMILIES[FAMILIES.len() - 1];
    last.base + super::weights::table_len(last.weights)
};

// The table fits its room, and flat indices fit the compact `u16` of the coefficient trace.
const _: () = assert!(END <= super::weights::CAPACITY && END <= u16::MAX as usize);

impl Default for Weights {
    fn default() -> Weights {
        let mut slots = [S::ZERO; super::weights::CAPACITY];
        for (offset, spec) in Weights::fields() {
            slots[offset..offset + spec.len()].copy_from_slice(spec.default);
        }
        Weights { slots }
    }
}

impl Weights {
    /// How many `S` pairs all weights hold together: the length of the flat vector that
    /// [`Weights::slot`], [`Weights::index_of`] and the coefficient trace index. Elements
    /// without a name (the king's material, ...) are included; [`Weights::name_of`] tells them
    /// apart.
    ///
    /// ```
    /// use minkowski_core::eval::weights::Weights;
    /// // Every weight's pairs, named or not.
    /// assert_eq!(Weights::COUNT, Weights::fields().map(|(_, s)| s.len()).sum::<usize>());
    /// // Of those, the named ones are the weights.
    /// let named = (0..Weights::COUNT).filter(|&i| Weights::name_of(i).is_some()).count();
    /// assert_eq!(Weights::names().len(), named);
    /// assert!(named < Weights::COUNT); // the king's material, a pawn's king-zone attack, ...
    /// ```
    pub const COUNT: usize = END;

    /// Every weight's declaration with the flat index of its first pair, in table order.
    ///
    /// ```
    /// use minkowski_core::eval::weights::Weights;
    /// let (offset, first) = Weights::fields().next().unwrap();
    /// assert_eq!((offset, first.name), (0, "material"));
    /// let (offset, psqt) = Weights::fields().nth(1).unwrap();
    /// assert_eq!((offset, psqt.name, psqt.len()), (6, "psqt", 6 * 64));
    /// ```
    pub fn fields() -> impl Iterator<Item = (usize, &'static WeightSpec)> {
        TABLE.iter().flat_map(|family| {
            family.weights.iter().scan(family.base, |offset, spec| {
                let at = *offset;
                *offset += spec.len();
                Some((at, spec))
            })
        })
    }

    /// The declaration and element of flat index `index`, if it is below [`Weights::COUNT`].
    ///
    /// ```
    /// use minkowski_core::eval::weights::Weights;
    /// let (spec, element) = Weights::locate(6 + 70).unwrap();
    /// assert_eq!((spec.name, element), ("psqt", 70));
    /// assert_eq!(Weights::locate(Weights::COUNT), None);
    /// ```
    #[must_use]
    pub fn locate(index: usize) -> Option<(&'static WeightSpec, usize)> {
        Weights::fields()
            .take_while(|&(offset, _)| offset <= index)
            .last()
            .and_then(|(offset, spec)| {
                (index - offset < spec.len()).then_some((spec, index - offset))
            })
    }

    /// The name of flat index `index`: `material.knight`, `psqt.knight.e4`, `tempo`, ...; `None`
    /// for elements that are structure rather than weights, and past [`Weights::COUNT`].
    ///
    /// ```
    /// use minkowski_core::eval::base::KING_ZONE_ATTACK;
    /// use minkowski_core::eval::mobility::MOBILITY_ROOK;
    /// use minkowski_core::eval::weights::Weights;
    /// assert_eq!(Weights::name_of(MOBILITY_ROOK.at(3).index()).as_deref(), Some("mobility_rook.n3"));
    /// assert_eq!(Weights::name_of(KING_ZONE_ATTACK.at(0).index()), None); // a pawn's attack
    /// ```
    #[must_use]
    pub fn name_of(index: usize) -> Option<String> {
        let (spec, element) = Weights::locate(index)?;
        let key = spec.keys.key(element)?;
        Some(if key.is_empty() {
            spec.name.to_owned()
        } else {
            format!("{}.{key}", spec.name)
        })
    }

    /// The flat index of the weight called `name`, if there is one.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::KBNK_CORNER;
    /// use minkowski_core::eval::weights::Weights;
    /// assert_eq!(Weights::index_of("kbnk_corner"), Some(KBNK_CORNER.at(0).index()));
    /// assert_eq!(Weights::index_of("psqt.pawn.a1"), Some(6));
    /// assert_eq!(Weights::index_of("material.king"), None); // structure, not a weight
    /// assert_eq!(Weights::index_of("material"), None);
    /// ```
    #[must_use]
    pub fn index_of(name: &str) -> Option<usize> {
        let (base, key) = name.split_once('.').unwrap_or((name, ""));
        let (offset, spec) = Weights::fields().find(|(_, spec)| spec.name == base)?;
        Some(offset + spec.keys.index(key)?)
    }

    /// The pair at flat index `index`, named or not.
    ///
    /// ```
    /// use minkowski_core::eval::base::TEMPO;
    /// use minkowski_core::eval::weights::Weights;
    /// let w = Weights::default();
    /// assert_eq!(w.slot(TEMPO.at(0).index()), Some(w[TEMPO]));
    /// assert_eq!(w.slot(Weights::COUNT), None);
    /// ```
    #[must_use]
    pub fn slot(&self, index: usize) -> Option<S> {
        self.slots[..Weights::COUNT].get(index).copied()
    }

    /// The pair at flat index `index`, mutable.
    ///
    /// ```
    /// use minkowski_core::eval::{score::S, threats::FORK_NOW, weights::Weights};
    /// let mut w = Weights::default();
    /// *w.slot_mut(FORK_NOW.at(0).index()).unwrap() = S(50, 50);
    /// assert_eq!(w[FORK_NOW], S(50, 50));
    /// ```
    #[must_use]
    pub fn slot_mut(&mut self, index: usize) -> Option<&mut S> {
        self.slots[..Weights::COUNT].get_mut(index)
    }

    /// Call `f` with every weight and its name, in flat order: `material.knight`,
    /// `psqt.knight.e4`, `passed_pawn.free.safe.rank6`, `mobility_rook.n7`, `king_zone_attack.queen`,
    /// `pawn_shield.near`, `bishop_pair`, `kbnk_corner`, ... (structure is left out).
    ///
    /// ```
    /// use minkowski_core::eval::weights::Weights;
    /// let mut w = Weights::default();
    /// let mut names = Vec::new();
    /// w.for_each_mut(|name, _| names.push(name.to_owned()));
    /// assert!(names.iter().any(|n| n == "psqt.knight.e4"));
    /// assert!(names.iter().any(|n| n == "kbnk_corner"));
    /// ```
    pub fn for_each_mut(&mut self, mut f: impl FnMut(&str, &mut S)) {
        for (index, s) in self.slots[..Weights::COUNT].iter_mut().enumerate() {
            if let Some(name) = Weights::name_of(index) {
                f(&name, s);
            }
        }
    }

    /// Every weight name, in flat order ([`Weights::for_each_mut`]).
    ///
    /// ```
    /// let names = minkowski_core::eval::weights::Weights::names();
    /// assert!(names.contains(&"fork_now".to_owned()));
    /// ```
    #[must_use]
    pub fn names() -> Vec<String> {
        (0..Weights::COUNT).filter_map(Weights::name_of).collect()
    }

    /// The weight called `name`, if there is one.
    ///
    /// ```
    /// use minkowski_core::eval::{base::MATERIAL, weights::Weights};
    /// assert_eq!(Weights::default().get("material.pawn"), Some(MATERIAL.spec().default[0]));
    /// assert_eq!(Weights::default().get("material.dragon"), None);
    /// ```
    #[must_use]
    pub fn get(&self, name: &str) -> Option<S> {
        self.slot(Weights::index_of(name)?)
    }

    /// Set the weight called `name` (e.g. from engine.toml's `[eval]` table). Its range is not
    /// checked here (engine.toml checks it).
    ///
    /// ```
    /// use minkowski_core::eval::{endgame::KBNK_CORNER, weights::Weights, score::S};
    /// let mut w = Weights::default();
    /// w.set("kbnk_corner", S(30, 30)).unwrap();
    /// assert_eq!(w[KBNK_CORNER], S(30, 30));
    /// assert!(w.set("no_such_weight", S(1, 1)).is_err());
    /// ```
    pub fn set(&mut self, name: &str, value: S) -> Result<(), UnknownWeight> {
        let slot = Weights::index_of(name).and_then(|i| self.slot_mut(i));
        match slot {
            Some(s) => {
                *s = value;
                Ok(())
            }
            None => Err(UnknownWeight(name.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every named element's name leads back to it, and names are unique.
    #[test]
    fn names_and_indices_agree() {
        let names = Weights::names();
        let unique: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), names.len());
        for name in &names {
            let index = Weights::index_of(name).unwrap();
            assert_eq!(Weights::name_of(index).as_deref(), Some(name.as_str()));
        }
    }

    /// The defaults fill the table exactly, each weight's where its declaration says.
    #[test]
    fn defaults_fill_the_table() {
        let w = Weights::default();
        assert!(w.slots[Weights::COUNT..].iter().all(|&s| s == S::ZERO));
        for (offset, spec) in Weights::fields() {
            assert_eq!(
                &w.slots[offset..offset + spec.len()],
                spec.default,
                "{}",
                spec.name
            );
        }
    }
}
