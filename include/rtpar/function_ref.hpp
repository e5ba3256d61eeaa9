// rtpar/function_ref.hpp — a non-owning, non-allocating reference to a callable.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace rtpar {

template <class Signature>
class FunctionRef;

// FunctionRef refers to a callable without owning or copying it, so passing a lambda to a fork/join
// region never allocates (std::function may). The referenced callable must outlive the call.
template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  // FunctionRef binds to any callable invocable as R(Args...).
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef> &&
                                              std::is_invocable_r_v<R, F&, Args...>>>
  FunctionRef(F&& f) noexcept  // NOLINT(google-explicit-constructor): implicit like a callable
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* obj, Args... args) -> R {
          return (*static_cast<std::add_pointer_t<F>>(obj))(std::forward<Args>(args)...);
        }) {}

  // operator() invokes the referenced callable.
  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace rtpar
