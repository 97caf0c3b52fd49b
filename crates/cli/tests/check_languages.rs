//! `check --commit` on a commit that drops a function still used elsewhere, in each of the 11
//! languages: exit 1 with a G7 finding naming the symbol and the place it is still used. And
//! a pure rename is reported as a rename.

mod common;

use common::{Repo, slopguard_json};

/// (language, defining file, before, after, user file, user content)
const CASES: &[(&str, &str, &str, &str, &str, &str)] = &[
    (
        "python",
        "lib.py",
        "def keep():\n    return 1\n\n\ndef helper():\n    return 2\n",
        "def keep():\n    return 1\n",
        "main.py",
        "from lib import helper\n\nprint(helper())\n",
    ),
    (
        "rust",
        "src/util.rs",
        "pub fn keep() -> i32 {\n    1\n}\n\npub fn helper() -> i32 {\n    2\n}\n",
        "pub fn keep() -> i32 {\n    1\n}\n",
        "src/main.rs",
        "mod util;\n\nfn main() {\n    println!(\"{}\", util::helper());\n}\n",
    ),
    (
        "javascript",
        "lib.js",
        "export function keep() {\n  return 1;\n}\n\nexport function helper() {\n  return 2;\n}\n",
        "export function keep() {\n  return 1;\n}\n",
        "main.js",
        "import { helper } from './lib.js';\n\nconsole.log(helper());\n",
    ),
    (
        "typescript",
        "lib.ts",
        "export function keep(): number {\n  return 1;\n}\n\nexport function helper(): number {\n  return 2;\n}\n",
        "export function keep(): number {\n  return 1;\n}\n",
        "main.ts",
        "import { helper } from './lib';\n\nconst x: number = helper();\nconsole.log(x);\n",
    ),
    (
        "tsx",
        "components.tsx",
        "export function Keep() {\n  return <div>keep</div>;\n}\n\nexport function Helper() {\n  return <span>help</span>;\n}\n",
        "export function Keep() {\n  return <div>keep</div>;\n}\n",
        "app.tsx",
        "import { Helper } from './components';\n\nexport const App = () => <Helper />;\n",
    ),
    (
        "go",
        "pkg/math.go",
        "package pkg\n\nfunc Keep() int {\n\treturn 1\n}\n\nfunc Helper() int {\n\treturn 2\n}\n",
        "package pkg\n\nfunc Keep() int {\n\treturn 1\n}\n",
        "pkg/use.go",
        "package pkg\n\nfunc Twice() int {\n\treturn Helper() * 2\n}\n",
    ),
    (
        "java",
        "src/Util.java",
        "public class Util {\n    public static int keep() {\n        return 1;\n    }\n\n    public static int helper() {\n        return 2;\n    }\n}\n",
        "public class Util {\n    public static int keep() {\n        return 1;\n    }\n}\n",
        "src/Main.java",
        "public class Main {\n    public static void main(String[] args) {\n        System.out.println(Util.helper());\n    }\n}\n",
    ),
    (
        "c",
        "util.c",
        "int keep(void) {\n    return 1;\n}\n\nint helper(void) {\n    return 2;\n}\n",
        "int keep(void) {\n    return 1;\n}\n",
        "main.c",
        "int helper(void);\n\nint main(void) {\n    return helper();\n}\n",
    ),
    (
        "cpp",
        "util.cpp",
        "int keep() {\n    return 1;\n}\n\nint helper() {\n    return 2;\n}\n",
        "int keep() {\n    return 1;\n}\n",
        "main.cpp",
        "#include <iostream>\nint helper();\n\nint main() {\n    std::cout << helper() << std::endl;\n    return 0;\n}\n",
    ),
    (
        "ruby",
        "lib.rb",
        "def keep\n  1\nend\n\ndef helper\n  2\nend\n",
        "def keep\n  1\nend\n",
        "main.rb",
        "require_relative 'lib'\n\nputs helper\n",
    ),
    (
        "bash",
        "lib.sh",
        "#!/usr/bin/env bash\nkeep() {\n  echo 1\n}\n\nhelper() {\n  echo 2\n}\n",
        "#!/usr/bin/env bash\nkeep() {\n  echo 1\n}\n",
        "main.sh",
        "#!/usr/bin/env bash\nsource ./lib.sh\nhelper\n",
    ),
];

#[test]
fn dropping_a_used_definition_blocks_in_every_language() {
    let mut failures = Vec::new();
    for (lang, file, before, after, user, user_content) in CASES {
        let repo = Repo::new();
        repo.write(file, before);
        repo.write(user, user_content);
        repo.commit("initial");
        repo.write(file, after);
        let rev = repo.commit("refactor");
        let (code, report) = slopguard_json(
            repo.path(),
            &["check", "--commit", &rev, "--format", "json"],
        );
        let g7 = report["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|f| f["code"] == "G7" && f["severity"] == "block");
        let ok = code == 1
            && g7.is_some_and(|f| {
                let m = f["message"].as_str().unwrap_or("");
                m.to_lowercase().contains("helper")
                    && m.contains(user)
                    && f["data"]["used_at"][0]
                        .as_str()
                        .is_some_and(|u| u.starts_with(user))
            });
        if !ok {
            failures.push(format!(
                "{lang}: exit {code}, findings {}",
                report["findings"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "languages that did not block:\n{}",
        failures.join("\n")
    );
}

#[test]
fn pure_rename_is_reported_as_rename() {
    let repo = Repo::new();
    repo.write("calc.py", "def compute_total(items):\n    total = 0\n    for i in items:\n        total += i\n    return total\n");
    repo.commit("initial");
    repo.write("calc.py", "def sum_items(items):\n    total = 0\n    for i in items:\n        total += i\n    return total\n");
    let rev = repo.commit("rename");
    let (code, report) = slopguard_json(
        repo.path(),
        &["check", "--commit", &rev, "--format", "json"],
    );
    assert_eq!(code, 0, "{report}");
    let f = &report["findings"][0];
    assert_eq!(f["code"], "G7");
    assert_eq!(f["severity"], "warn");
    assert_eq!(f["data"]["renamed_to"], "sum_items");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("renamed to `sum_items`")
    );
}

#[test]
fn rename_of_a_used_function_blocks() {
    let repo = Repo::new();
    repo.write("calc.py", "def compute_total(items):\n    total = 0\n    for i in items:\n        total += i\n    return total\n");
    repo.write(
        "app.py",
        "from calc import compute_total\n\nprint(compute_total([1, 2]))\n",
    );
    repo.commit("initial");
    repo.write("calc.py", "def sum_items(items):\n    total = 0\n    for i in items:\n        total += i\n    return total\n");
    let rev = repo.commit("rename");
    let (code, report) = slopguard_json(
        repo.path(),
        &["check", "--commit", &rev, "--format", "json"],
    );
    assert_eq!(code, 1, "{report}");
    let m = report["findings"][0]["message"].as_str().unwrap();
    assert!(
        m.contains("renamed to `sum_items` but is still used at app.py"),
        "{m}"
    );
}
