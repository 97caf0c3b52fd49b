# frozen_string_literal: true

require "test_helper"

# Adapted from dry-inflector's spec/unit/dry/inflector/{ordinalize,dasherize,demodulize}_spec.rb.
describe Dry::Inflector do
  describe "#ordinalize" do
    Fixtures::Ordinalize.cases.each do |n, expected|
      it "ordinalizes #{n} => #{expected}" do
        _(subject.ordinalize(n)).must_equal(expected)
      end
    end

    describe "when number ends with digit 1" do
      it "adds -th suffix when number ends with 11" do
        [-1011, -111, -11, 11, 111, 1011].each do |number|
          _(subject.ordinalize(number)).must_equal("#{number}th")
        end
      end

      it "adds -st suffix when number does not end with 11" do
        [-1001, -101, -21, -1, 1, 21, 101, 1001].each do |number|
          _(subject.ordinalize(number)).must_equal("#{number}st")
        end
      end
    end

    describe "when number ends with digit 2" do
      it "adds -th suffix when number ends with 12" do
        [-1012, -112, -12, 12, 112, 1012].each do |number|
          _(subject.ordinalize(number)).must_equal("#{number}th")
        end
      end

      it "adds -nd suffix when number does not end with 12" do
        [-1002, -102, -22, -2, 2, 22, 102, 1002].each do |number|
          _(subject.ordinalize(number)).must_equal("#{number}nd")
        end
      end
    end

    describe "when number ends with digit 3" do
      it "adds -th suffix when number ends with 13" do
        [-1013, -113, -13, 13, 113, 1013].each do |number|
          _(subject.ordinalize(number)).must_equal("#{number}th")
        end
      end

      it "adds -rd suffix when number does not end with 13" do
        [-1003, -103, -23, -3, 3, 23, 103, 1003].each do |number|
          _(subject.ordinalize(number)).must_equal("#{number}rd")
        end
      end
    end

    it "ordinalizes other numbers with -th suffix" do
      [-4, 4, 5, 6, 7, 8, 9, 10, 14, 15, 16].each do |number|
        _(subject.ordinalize(number)).must_equal("#{number}th")
      end
    end
  end

  describe "#dasherize" do
    it "dasherizes data_mapper_rspec as data-mapper-rspec" do
      _(subject.dasherize(i("data_mapper_rspec"))).must_equal("data-mapper-rspec")
    end

    it "accepts symbols" do
      _(subject.dasherize(:data_mapper_rspec)).must_equal("data-mapper-rspec")
    end
  end

  describe "#demodulize" do
    it "demodulizes module name: DataMapper::Inflecto => Inflecto" do
      _(subject.demodulize(i("DataMapper::Inflecto"))).must_equal("Inflecto")
    end

    it "demodulizes module name: A::B::C::D::E => E" do
      _(subject.demodulize(i("A::B::C::D::E"))).must_equal("E")
    end

    it "accepts symbols" do
      _(subject.demodulize(:"DataMapper::Inflecto")).must_equal("Inflecto")
    end
  end

  it "inspects itself" do
    _(subject.inspect).must_equal("#<Dry::Inflector>")
  end
end
