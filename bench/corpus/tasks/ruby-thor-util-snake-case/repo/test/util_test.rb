require "minitest/autorun"
require "thor/util"

# Adapted from thor's spec/util_spec.rb (RSpec) to minitest/spec.
describe Thor::Util do
  describe "#namespace_from_thor_class" do
    it "replaces constant nesting with command namespacing" do
      _(Thor::Util.namespace_from_thor_class("Foo::Bar::Baz")).must_equal("foo:bar:baz")
    end

    it "snake-cases component strings" do
      _(Thor::Util.namespace_from_thor_class("FooBar::BarBaz::BazBoom")).must_equal("foo_bar:bar_baz:baz_boom")
    end

    it "accepts class and module objects" do
      _(Thor::Util.namespace_from_thor_class(Thor::Util)).must_equal("thor:util")
    end

    it "removes Thor::Sandbox namespace" do
      _(Thor::Util.namespace_from_thor_class("Thor::Sandbox::Package")).must_equal("package")
    end
  end

  describe "#snake_case" do
    it "preserves no-cap strings" do
      _(Thor::Util.snake_case("foo")).must_equal("foo")
      _(Thor::Util.snake_case("foo_bar")).must_equal("foo_bar")
    end

    it "downcases all-caps strings" do
      _(Thor::Util.snake_case("FOO")).must_equal("foo")
      _(Thor::Util.snake_case("FOO_BAR")).must_equal("foo_bar")
    end

    it "downcases initial-cap strings" do
      _(Thor::Util.snake_case("Foo")).must_equal("foo")
    end

    it "replaces camel-casing with underscores" do
      _(Thor::Util.snake_case("FooBarBaz")).must_equal("foo_bar_baz")
      _(Thor::Util.snake_case("Foo_BarBaz")).must_equal("foo_bar_baz")
    end

    it "places underscores between multiple capitals" do
      _(Thor::Util.snake_case("ABClass")).must_equal("a_b_class")
    end
  end

  describe "#globs_for" do
    it "escapes globs in path" do
      _(Thor::Util.globs_for("/home/apps{1}")).must_equal([
        '/home/apps\\{1\\}/Thorfile',
        '/home/apps\\{1\\}/*.thor',
        '/home/apps\\{1\\}/tasks/*.thor',
        '/home/apps\\{1\\}/lib/tasks/**/*.thor'
      ])
    end
  end

  describe "#escape_globs" do
    it "escapes ? * { } [ ] glob characters" do
      _(Thor::Util.escape_globs("apps?")).must_equal('apps\\?')
      _(Thor::Util.escape_globs("apps*")).must_equal('apps\\*')
      _(Thor::Util.escape_globs("apps {1}")).must_equal('apps \\{1\\}')
      _(Thor::Util.escape_globs("apps [1]")).must_equal('apps \\[1\\]')
    end
  end
end
