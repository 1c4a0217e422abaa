//! Copying a value into another's storage: a world reused for one try after another
//! (a billiards shot search copies its position's world for every shot) takes each
//! array of the source into the array it already has, so that once its arrays have
//! grown to a shot's needs no shot asks the allocator for memory.

/// Makes a value equal to another in its own storage.
pub(crate) trait CopyFrom {
    /// Makes `self` equal to `source` (as `source.clone()` would be), keeping `self`'s
    /// arrays where their capacity suffices.
    fn copy_from(&mut self, source: &Self);
}

impl<T: CopyFrom + Clone> CopyFrom for Option<T> {
    fn copy_from(&mut self, source: &Self) {
        match (self, source) {
            (Some(to), Some(from)) => to.copy_from(from),
            (to, from) => *to = from.clone(),
        }
    }
}

impl<T: CopyFrom> CopyFrom for Box<T> {
    fn copy_from(&mut self, source: &Self) {
        (**self).copy_from(&**source)
    }
}

impl<T: CopyFrom + Clone> CopyFrom for Vec<T> {
    fn copy_from(&mut self, source: &Self) {
        self.truncate(source.len());
        let (head, tail) = source.split_at(self.len());
        for (to, from) in self.iter_mut().zip(head) {
            to.copy_from(from);
        }
        self.extend_from_slice(tail);
    }
}

/// Implements [`CopyFrom`] for a struct field by field: the fields listed first by
/// `Clone::clone_from` (an array keeps its storage, a plain value is assigned), those
/// after `deep` by their own `CopyFrom`. Every field must be named (the struct is
/// taken apart without `..`), so a field added later cannot be left out of the copy.
macro_rules! copy_fields {
    ($ty:ident { $($plain:ident),* $(,)? } $(deep { $($deep:ident),* $(,)? })?) => {
        impl $crate::copying::CopyFrom for $ty {
            fn copy_from(&mut self, source: &Self) {
                let $ty { $($plain,)* $($($deep,)*)? } = self;
                $(::std::clone::Clone::clone_from($plain, &source.$plain);)*
                $($($crate::copying::CopyFrom::copy_from($deep, &source.$deep);)*)?
            }
        }
    };
}
pub(crate) use copy_fields;
