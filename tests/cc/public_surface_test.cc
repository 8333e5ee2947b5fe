// The installed C++ headers expose no way to the core objects behind the
// public classes: the accessors that return them are private (libtflite_cc
// reaches them through its own friend, src/cc/cc_internal.h), and the
// constructors that take core types are private too. Checked by detection:
// an inaccessible member fails substitution, so these traits are false
// exactly when a user's code could not compile the call.
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/signature_runner.h"

namespace {

template <typename T, typename = void>
struct HasImpl : std::false_type {};
template <typename T>
struct HasImpl<T, std::void_t<decltype(std::declval<const T&>().impl())>> : std::true_type {};

template <typename T, typename = void>
struct HasMutableImpl : std::false_type {};
template <typename T>
struct HasMutableImpl<T, std::void_t<decltype(std::declval<T&>().mutable_impl())>>
    : std::true_type {};

// A user's subclass cannot reach the resolver's core table either.
struct UserResolver : tflite::MutableOpResolver {
  template <typename U = UserResolver>
  static constexpr bool CanReachCore(decltype(std::declval<U&>().mutable_impl())*) {
    return true;
  }
  template <typename U = UserResolver>
  static constexpr bool CanReachCore(...) {
    return false;
  }
};

TEST(PublicSurface, CoreObjectsAreNotReachable) {
  static_assert(!HasImpl<tflite::Interpreter>::value, "Interpreter::impl() is public");
  static_assert(!HasImpl<tflite::FlatBufferModel>::value, "FlatBufferModel::impl() is public");
  static_assert(!HasImpl<tflite::MutableOpResolver>::value, "MutableOpResolver::impl() is public");
  static_assert(!HasMutableImpl<tflite::MutableOpResolver>::value,
                "MutableOpResolver::mutable_impl() is public");
  static_assert(!UserResolver::CanReachCore(nullptr), "a subclass reaches the core resolver");
  static_assert(!std::is_constructible_v<tflite::SignatureRunner, tflite_c::Interpreter*,
                                         const tflite_c::SignatureInfo*, tflite_c::Subgraph*>,
                "SignatureRunner is constructible from core types");
  SUCCEED();
}

}  // namespace
