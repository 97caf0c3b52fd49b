//! The framework map: which declared packages imply which well-known framework, and how prose
//! names it (used by content-grounding, G11).

/// One well-known framework or library family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameworkDef {
    /// Stable lowercase id, as reported in `declared_frameworks` ("react", "django", "clap").
    pub id: &'static str,
    /// Display name ("React", "Django").
    pub name: &'static str,
    /// Ecosystem whose manifests declare it ("npm", "python", "rust", "go", "ruby").
    pub ecosystem: &'static str,
    /// Package names that imply it; a trailing `*` matches a prefix (`@angular/*`).
    pub packages: &'static [&'static str],
    /// Regular-expression alternatives (case-sensitive, matched on word boundaries) that name
    /// it in prose. Empty when the name is too ambiguous in English to check ("Express",
    /// "Echo", "Warp"): such a framework is still inferred, just never mention-checked.
    pub mentions: &'static [&'static str],
}

const fn fw(
    id: &'static str,
    name: &'static str,
    ecosystem: &'static str,
    packages: &'static [&'static str],
    mentions: &'static [&'static str],
) -> FrameworkDef {
    FrameworkDef {
        id,
        name,
        ecosystem,
        packages,
        mentions,
    }
}

/// Every framework slopguard infers and mention-checks.
pub const FRAMEWORKS: &[FrameworkDef] = &[
    // ---- JavaScript / TypeScript (npm)
    fw(
        "react",
        "React",
        "npm",
        &["react", "react-dom"],
        &["React(?:\\.js|JS)?"],
    ),
    fw(
        "react-native",
        "React Native",
        "npm",
        &["react-native"],
        &["React Native"],
    ),
    fw(
        "redux",
        "Redux",
        "npm",
        &["redux", "@reduxjs/*", "react-redux"],
        &["Redux"],
    ),
    fw(
        "next",
        "Next.js",
        "npm",
        &["next"],
        &["Next\\.js", "NextJS"],
    ),
    fw(
        "vue",
        "Vue",
        "npm",
        &["vue"],
        &["Vue(?:\\.js|JS)?", "Vuex", "Pinia"],
    ),
    fw(
        "nuxt",
        "Nuxt",
        "npm",
        &["nuxt", "nuxt3"],
        &["Nuxt(?:\\.js|JS)?"],
    ),
    fw("svelte", "Svelte", "npm", &["svelte"], &["Svelte"]),
    fw(
        "sveltekit",
        "SvelteKit",
        "npm",
        &["@sveltejs/kit"],
        &["SvelteKit"],
    ),
    fw(
        "angular",
        "Angular",
        "npm",
        &["@angular/*", "angular"],
        &["Angular(?:JS)?"],
    ),
    fw(
        "express",
        "Express",
        "npm",
        &["express"],
        &["Express\\.js", "ExpressJS"],
    ),
    fw("koa", "Koa", "npm", &["koa"], &["Koa(?:\\.js)?"]),
    fw("fastify", "Fastify", "npm", &["fastify"], &["Fastify"]),
    fw(
        "nestjs",
        "NestJS",
        "npm",
        &["@nestjs/*"],
        &["NestJS", "Nest\\.js"],
    ),
    fw(
        "tailwindcss",
        "Tailwind CSS",
        "npm",
        &["tailwindcss", "@tailwindcss/*"],
        &["Tailwind(?: ?CSS)?"],
    ),
    fw("vite", "Vite", "npm", &["vite"], &["Vite"]),
    fw("webpack", "webpack", "npm", &["webpack"], &[]),
    fw("jest", "Jest", "npm", &["jest"], &[]),
    fw("vitest", "Vitest", "npm", &["vitest"], &[]),
    fw("mocha", "Mocha", "npm", &["mocha"], &[]),
    fw("cypress", "Cypress", "npm", &["cypress"], &[]),
    fw(
        "playwright",
        "Playwright",
        "npm",
        &["@playwright/test", "playwright"],
        &[],
    ),
    fw(
        "electron",
        "Electron",
        "npm",
        &["electron"],
        &["Electron(?:\\.js|JS| app)"],
    ),
    fw(
        "gatsby",
        "Gatsby",
        "npm",
        &["gatsby"],
        &["Gatsby(?:\\.js|JS)?"],
    ),
    fw("remix", "Remix", "npm", &["@remix-run/*"], &[]),
    fw("astro", "Astro", "npm", &["astro"], &[]),
    fw(
        "solid",
        "SolidJS",
        "npm",
        &["solid-js"],
        &["SolidJS", "Solid\\.js"],
    ),
    fw("preact", "Preact", "npm", &["preact"], &["Preact"]),
    fw("jquery", "jQuery", "npm", &["jquery"], &["jQuery"]),
    fw(
        "prisma",
        "Prisma",
        "npm",
        &["prisma", "@prisma/client"],
        &["Prisma"],
    ),
    fw("typeorm", "TypeORM", "npm", &["typeorm"], &["TypeORM"]),
    fw(
        "sequelize",
        "Sequelize",
        "npm",
        &["sequelize"],
        &["Sequelize"],
    ),
    fw("mongoose", "Mongoose", "npm", &["mongoose"], &["Mongoose"]),
    fw(
        "apollo",
        "Apollo GraphQL",
        "npm",
        &["@apollo/*", "apollo-server*"],
        &["Apollo (?:Client|Server|GraphQL)"],
    ),
    fw(
        "socket.io",
        "Socket.IO",
        "npm",
        &["socket.io", "socket.io-client"],
        &["Socket\\.IO", "socket\\.io"],
    ),
    fw(
        "three",
        "three.js",
        "npm",
        &["three"],
        &["Three\\.js", "three\\.js"],
    ),
    fw("d3", "D3", "npm", &["d3", "d3-*"], &["D3\\.js"]),
    fw(
        "storybook",
        "Storybook",
        "npm",
        &["storybook", "@storybook/*"],
        &["Storybook"],
    ),
    fw(
        "vitepress",
        "VitePress",
        "npm",
        &["vitepress"],
        &["VitePress"],
    ),
    fw(
        "docusaurus",
        "Docusaurus",
        "npm",
        &["@docusaurus/*"],
        &["Docusaurus"],
    ),
    fw("eslint", "ESLint", "npm", &["eslint"], &[]),
    fw("prettier", "Prettier", "npm", &["prettier"], &[]),
    fw("typescript", "TypeScript", "npm", &["typescript"], &[]),
    // ---- Python
    fw(
        "django",
        "Django",
        "python",
        &["django", "Django"],
        &["Django"],
    ),
    fw("flask", "Flask", "python", &["flask", "Flask"], &["Flask"]),
    fw("fastapi", "FastAPI", "python", &["fastapi"], &["FastAPI"]),
    fw(
        "starlette",
        "Starlette",
        "python",
        &["starlette"],
        &["Starlette"],
    ),
    fw("aiohttp", "aiohttp", "python", &["aiohttp"], &["aiohttp"]),
    fw("sanic", "Sanic", "python", &["sanic"], &["Sanic"]),
    fw("tornado", "Tornado", "python", &["tornado"], &[]),
    fw("celery", "Celery", "python", &["celery"], &["Celery"]),
    fw(
        "sqlalchemy",
        "SQLAlchemy",
        "python",
        &["sqlalchemy", "SQLAlchemy"],
        &["SQLAlchemy"],
    ),
    fw(
        "pydantic",
        "Pydantic",
        "python",
        &["pydantic"],
        &["Pydantic"],
    ),
    fw("pytest", "pytest", "python", &["pytest"], &[]),
    fw("numpy", "NumPy", "python", &["numpy"], &["NumPy"]),
    fw(
        "pandas",
        "pandas",
        "python",
        &["pandas"],
        &["[Pp]andas DataFrame", "Pandas"],
    ),
    fw("scipy", "SciPy", "python", &["scipy"], &["SciPy"]),
    fw(
        "scikit-learn",
        "scikit-learn",
        "python",
        &["scikit-learn", "sklearn"],
        &["scikit-learn", "sklearn"],
    ),
    fw(
        "tensorflow",
        "TensorFlow",
        "python",
        &["tensorflow", "tensorflow-*", "tf-nightly"],
        &["TensorFlow"],
    ),
    fw(
        "pytorch",
        "PyTorch",
        "python",
        &["torch", "pytorch", "torchvision"],
        &["PyTorch"],
    ),
    fw(
        "keras",
        "Keras",
        "python",
        &["keras", "tensorflow"],
        &["Keras"],
    ),
    fw("jax", "JAX", "python", &["jax", "jaxlib"], &[]),
    fw(
        "transformers",
        "Hugging Face Transformers",
        "python",
        &["transformers"],
        &["Hugging ?Face Transformers"],
    ),
    fw(
        "langchain",
        "LangChain",
        "python",
        &["langchain", "langchain-*"],
        &["LangChain"],
    ),
    fw(
        "streamlit",
        "Streamlit",
        "python",
        &["streamlit"],
        &["Streamlit"],
    ),
    fw("gradio", "Gradio", "python", &["gradio"], &["Gradio"]),
    fw(
        "matplotlib",
        "Matplotlib",
        "python",
        &["matplotlib"],
        &["Matplotlib", "matplotlib"],
    ),
    fw(
        "scrapy",
        "Scrapy",
        "python",
        &["scrapy", "Scrapy"],
        &["Scrapy"],
    ),
    fw(
        "beautifulsoup",
        "Beautiful Soup",
        "python",
        &["beautifulsoup4", "bs4"],
        &["BeautifulSoup", "Beautiful Soup"],
    ),
    fw("click", "Click", "python", &["click"], &[]),
    fw("typer", "Typer", "python", &["typer"], &["Typer"]),
    fw("requests", "Requests", "python", &["requests"], &[]),
    fw("httpx", "HTTPX", "python", &["httpx"], &["HTTPX", "httpx"]),
    // ---- Rust
    fw("clap", "clap", "rust", &["clap"], &["[Cc]lap"]),
    fw("tokio", "Tokio", "rust", &["tokio"], &["[Tt]okio"]),
    fw(
        "actix",
        "Actix",
        "rust",
        &["actix", "actix-web", "actix-*"],
        &["Actix(?:-web| Web)?", "actix-web"],
    ),
    fw("axum", "Axum", "rust", &["axum"], &["[Aa]xum"]),
    fw("rocket", "Rocket", "rust", &["rocket"], &["Rocket\\.rs"]),
    fw("warp", "warp", "rust", &["warp"], &[]),
    fw(
        "serde",
        "Serde",
        "rust",
        &["serde", "serde_json", "serde_derive"],
        &["[Ss]erde"],
    ),
    fw("diesel", "Diesel", "rust", &["diesel"], &["Diesel ORM"]),
    fw("sqlx", "SQLx", "rust", &["sqlx"], &["SQLx", "sqlx"]),
    fw("tonic", "Tonic", "rust", &["tonic"], &[]),
    fw("bevy", "Bevy", "rust", &["bevy"], &["Bevy"]),
    fw("tauri", "Tauri", "rust", &["tauri"], &["Tauri"]),
    fw("yew", "Yew", "rust", &["yew"], &["Yew"]),
    fw("leptos", "Leptos", "rust", &["leptos"], &["Leptos"]),
    fw("hyper", "hyper", "rust", &["hyper"], &[]),
    fw("rayon", "Rayon", "rust", &["rayon"], &["Rayon"]),
    fw("egui", "egui", "rust", &["egui", "eframe"], &["egui"]),
    fw("ratatui", "Ratatui", "rust", &["ratatui"], &["Ratatui"]),
    fw("reqwest", "reqwest", "rust", &["reqwest"], &["reqwest"]),
    // ---- Go
    fw(
        "gin",
        "Gin",
        "go",
        &["github.com/gin-gonic/gin"],
        &["gin-gonic", "Gin (?:framework|web framework|router)"],
    ),
    fw(
        "echo",
        "Echo",
        "go",
        &["github.com/labstack/echo*"],
        &["labstack/echo"],
    ),
    fw(
        "fiber",
        "Fiber",
        "go",
        &["github.com/gofiber/fiber*"],
        &["GoFiber", "gofiber"],
    ),
    fw(
        "cobra",
        "Cobra",
        "go",
        &["github.com/spf13/cobra"],
        &["Cobra"],
    ),
    fw("viper", "Viper", "go", &["github.com/spf13/viper"], &[]),
    fw(
        "gorm",
        "GORM",
        "go",
        &["gorm.io/gorm", "github.com/jinzhu/gorm"],
        &["GORM"],
    ),
    fw("chi", "chi", "go", &["github.com/go-chi/chi*"], &["go-chi"]),
    fw(
        "grpc",
        "gRPC",
        "go",
        &["google.golang.org/grpc", "grpcio", "tonic", "@grpc/*"],
        &[],
    ),
    fw(
        "gorilla",
        "Gorilla",
        "go",
        &["github.com/gorilla/*"],
        &["Gorilla (?:mux|WebSocket|toolkit)"],
    ),
    fw(
        "testify",
        "testify",
        "go",
        &["github.com/stretchr/testify"],
        &[],
    ),
    fw("zap", "zap", "go", &["go.uber.org/zap"], &[]),
    fw(
        "bubbletea",
        "Bubble Tea",
        "go",
        &["github.com/charmbracelet/bubbletea"],
        &["Bubble ?Tea"],
    ),
    // ---- Ruby
    fw(
        "rails",
        "Ruby on Rails",
        "ruby",
        &["rails", "railties"],
        &["Ruby on Rails", "Rails"],
    ),
    fw("sinatra", "Sinatra", "ruby", &["sinatra"], &[]),
    fw("rspec", "RSpec", "ruby", &["rspec", "rspec-*"], &[]),
    fw("hanami", "Hanami", "ruby", &["hanami"], &["Hanami"]),
    fw("sidekiq", "Sidekiq", "ruby", &["sidekiq"], &["Sidekiq"]),
    fw("jekyll", "Jekyll", "ruby", &["jekyll"], &["Jekyll"]),
];

/// True when `pattern` (an entry of [`FrameworkDef::packages`]) matches `name`.
pub fn package_matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern.eq_ignore_ascii_case(name),
    }
}

/// The frameworks a declared package of `ecosystem` implies. `grpc` and similar
/// cross-ecosystem families match in any ecosystem.
pub fn frameworks_for<'a>(
    ecosystem: &'a str,
    package: &'a str,
) -> impl Iterator<Item = &'static FrameworkDef> + 'a {
    FRAMEWORKS.iter().filter(move |f| {
        (f.ecosystem == ecosystem || f.id == "grpc")
            && f.packages.iter().any(|p| package_matches(p, package))
    })
}

/// Looks a framework up by id.
pub fn framework(id: &str) -> Option<&'static FrameworkDef> {
    FRAMEWORKS.iter().find(|f| f.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_is_large_and_ids_unique() {
        assert!(FRAMEWORKS.len() >= 70, "{}", FRAMEWORKS.len());
        let mut ids: Vec<_> = FRAMEWORKS.iter().map(|f| f.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), FRAMEWORKS.len());
    }

    #[test]
    fn inference() {
        let ids: Vec<_> = frameworks_for("npm", "@reduxjs/toolkit")
            .map(|f| f.id)
            .collect();
        assert_eq!(ids, ["redux"]);
        assert!(frameworks_for("python", "Django").any(|f| f.id == "django"));
        assert!(frameworks_for("rust", "tonic").any(|f| f.id == "grpc"));
        assert_eq!(frameworks_for("npm", "left-pad").count(), 0);
    }
}
