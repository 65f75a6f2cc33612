//! Account roles and what each may do. The server checks every action against
//! [`Role::allows`]; pages only hide what a role cannot do.

use serde::{Deserialize, Serialize};

use crate::vocab::vocabulary;

vocabulary! {
    /// A signed-in user's role.
    Role, kind "role" {
        Admin = "admin", zh "管理员", en "Admin";
        Expert = "expert", zh "法律专家", en "Legal expert";
        Researcher = "researcher", zh "研究人员", en "Researcher";
    }
}

/// An action that needs a signed-in user with the right role. Reading cases,
/// statistics and the leaderboard needs none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Permission {
    ImportDataset,
    ManageUsers,
    UploadRun,
    Review,
    /// Create review items and assign them to experts (admins only).
    ManageReview,
    Adjudicate,
    RunBenchmark,
}

impl Permission {
    /// Every permission.
    pub const ALL: [Permission; 7] = [
        Permission::ImportDataset,
        Permission::ManageUsers,
        Permission::UploadRun,
        Permission::Review,
        Permission::ManageReview,
        Permission::Adjudicate,
        Permission::RunBenchmark,
    ];
}

impl Role {
    /// The role a new account is offered first: the researcher. An expert
    /// and a researcher each hold one permission, but not of the same
    /// weight: a researcher sees nothing the public does not and changes
    /// only runs it uploaded itself (each checked, kept with its uploader),
    /// while an expert reads review items withheld from the public and its
    /// labels change figures about everyone's runs (agreement, fidelity,
    /// corrections). An admin holds every permission.
    ///
    /// ```
    /// use engine::accounts::{Permission, Role};
    /// assert_eq!(Role::LEAST_PRIVILEGED, Role::Researcher);
    /// assert!(!Role::LEAST_PRIVILEGED.allows(Permission::Review));
    /// ```
    pub const LEAST_PRIVILEGED: Role = Role::Researcher;

    /// Whether this role may perform `permission`.
    ///
    /// # Examples
    /// ```
    /// use engine::accounts::{Permission, Role};
    /// assert!(Role::Admin.allows(Permission::ManageUsers));
    /// assert!(!Role::Expert.allows(Permission::ManageUsers));
    /// assert!(Role::Researcher.allows(Permission::UploadRun));
    /// ```
    pub fn allows(self, permission: Permission) -> bool {
        use Permission::*;
        match self {
            Role::Admin => true,
            Role::Expert => matches!(permission, Review),
            Role::Researcher => matches!(permission, UploadRun),
        }
    }
}

/// What one account may do: its role's permissions and, for an expert the
/// admins designated as adjudicator, [`Permission::Adjudicate`] besides.
///
/// # Examples
/// ```
/// use engine::accounts::{Permission, Role, Standing};
/// let designated = Standing { role: Role::Expert, adjudicator: true };
/// assert!(designated.allows(Permission::Adjudicate));
/// assert!(!designated.allows(Permission::ManageReview));
/// let researcher = Standing { role: Role::Researcher, adjudicator: true };
/// assert!(!researcher.allows(Permission::Adjudicate));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub role: Role,
    /// Designated to adjudicate (meaningful for experts only).
    pub adjudicator: bool,
}

impl Standing {
    /// Whether the account may perform `permission`.
    pub fn allows(self, permission: Permission) -> bool {
        self.role.allows(permission)
            || (self.adjudicator
                && self.role == Role::Expert
                && permission == Permission::Adjudicate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_round_trip_through_their_names() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(role));
        }
        assert_eq!(Role::parse("Admin"), None);
    }

    #[test]
    fn the_least_privileged_role_holds_no_more_permissions_than_any_other() {
        let held = |role: Role| {
            Permission::ALL
                .into_iter()
                .filter(|p| role.allows(*p))
                .collect::<Vec<_>>()
        };
        for role in Role::ALL {
            assert!(
                held(Role::LEAST_PRIVILEGED).len() <= held(role).len(),
                "{role:?}"
            );
        }
        assert_eq!(held(Role::LEAST_PRIVILEGED), [Permission::UploadRun]);
    }

    #[test]
    fn only_admins_manage_users_and_import() {
        for p in [
            Permission::ManageUsers,
            Permission::ImportDataset,
            Permission::RunBenchmark,
            Permission::ManageReview,
            Permission::Adjudicate,
        ] {
            assert!(Role::Admin.allows(p));
            assert!(!Role::Expert.allows(p));
            assert!(!Role::Researcher.allows(p));
        }
    }

    #[test]
    fn a_designated_expert_adjudicates_and_nothing_more() {
        for role in Role::ALL {
            for p in Permission::ALL {
                let plain = Standing {
                    role,
                    adjudicator: false,
                };
                let designated = Standing {
                    role,
                    adjudicator: true,
                };
                assert_eq!(plain.allows(p), role.allows(p), "{role:?} {p:?}");
                let gained = role == Role::Expert && p == Permission::Adjudicate;
                assert_eq!(
                    designated.allows(p),
                    role.allows(p) || gained,
                    "{role:?} {p:?}"
                );
            }
        }
    }
}

/// Who replaces (or deletes) a stored run; see [`Replacer::may_replace`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replacer {
    /// An admin account, or the operator at the command line (who holds
    /// the database itself): any run.
    Admin,
    /// Any other account, by id: only the runs it uploaded.
    Account(i64),
}

impl Replacer {
    /// The replacer an account `id` with `role` is.
    pub fn of(id: i64, role: Role) -> Replacer {
        match role {
            Role::Admin => Replacer::Admin,
            _ => Replacer::Account(id),
        }
    }

    /// Whether this replacer may replace or delete a run uploaded by
    /// `uploader`: the uploader may, an admin may; a run with no uploader
    /// (stored by a benchmark job, the demo or the command line) only an
    /// admin may. `Err` is the reason, to follow "model M run N".
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::accounts::{Replacer, Role};
    /// assert!(Replacer::of(7, Role::Researcher).may_replace(Some(7)).is_ok());
    /// assert!(Replacer::of(8, Role::Researcher).may_replace(Some(7)).is_err());
    /// assert!(Replacer::of(8, Role::Researcher).may_replace(None).is_err());
    /// assert!(Replacer::of(1, Role::Admin).may_replace(None).is_ok());
    /// ```
    pub fn may_replace(self, uploader: Option<i64>) -> Result<(), &'static str> {
        match (self, uploader) {
            (Replacer::Admin, _) => Ok(()),
            (Replacer::Account(me), Some(by)) if me == by => Ok(()),
            (Replacer::Account(_), Some(_)) => {
                Err("was uploaded by another account; only its uploader or an admin may replace it")
            }
            (Replacer::Account(_), None) => Err(
                "was stored by a benchmark job, the demo or the command line; only an admin may \
                 replace it",
            ),
        }
    }
}
