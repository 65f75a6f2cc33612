//! Account roles and what each may do. The server checks every action against
//! [`Role::allows`]; pages only hide what a role cannot do.

use serde::{Deserialize, Serialize};

/// A signed-in user's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Admin,
    Expert,
    Researcher,
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
    Adjudicate,
    RunBenchmark,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Admin, Role::Expert, Role::Researcher];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Expert => "expert",
            Role::Researcher => "researcher",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }

    pub fn label_zh(self) -> &'static str {
        match self {
            Role::Admin => "管理员",
            Role::Expert => "法律专家",
            Role::Researcher => "研究人员",
        }
    }

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

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
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
    fn only_admins_manage_users_and_import() {
        for p in [
            Permission::ManageUsers,
            Permission::ImportDataset,
            Permission::RunBenchmark,
        ] {
            assert!(Role::Admin.allows(p));
            assert!(!Role::Expert.allows(p));
            assert!(!Role::Researcher.allows(p));
        }
    }
}
