// Units as types: time points, durations, byte counts and rates over int64.
//
// The core never reads a clock. Every `Time` comes from the caller (the ns-3
// simulator, a steady clock in the UDP driver, a manual clock in tests).
// Arithmetic that mixes units yields the unit it means:
//   Bytes / Rate -> Duration,  Rate * Duration -> Bytes,  Bytes / Duration -> Rate.
#pragma once

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>

namespace mantra {

// A span of time in microseconds.
class Duration {
 public:
  constexpr Duration() = default;
  static constexpr Duration micros(int64_t us) { return Duration(us); }
  static constexpr Duration millis(int64_t ms) { return Duration(ms * 1000); }
  static constexpr Duration seconds(int64_t s) { return Duration(s * 1000000); }
  static Duration from_seconds(double s) { return Duration(static_cast<int64_t>(std::llround(s * 1e6))); }
  static constexpr Duration zero() { return Duration(0); }
  static constexpr Duration infinite() { return Duration(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t us() const { return us_; }
  constexpr double secs() const { return static_cast<double>(us_) / 1e6; }
  constexpr double ms() const { return static_cast<double>(us_) / 1e3; }
  constexpr bool is_zero() const { return us_ == 0; }

  constexpr Duration operator+(Duration o) const { return Duration(us_ + o.us_); }
  constexpr Duration operator-(Duration o) const { return Duration(us_ - o.us_); }
  constexpr Duration operator*(int64_t k) const { return Duration(us_ * k); }
  constexpr Duration operator*(int k) const { return Duration(us_ * k); }
  Duration operator*(double k) const { return Duration(static_cast<int64_t>(std::llround(us_ * k))); }
  constexpr Duration operator/(int64_t k) const { return Duration(us_ / k); }
  constexpr double operator/(Duration o) const { return static_cast<double>(us_) / static_cast<double>(o.us_); }
  constexpr Duration& operator+=(Duration o) {
    us_ += o.us_;
    return *this;
  }
  constexpr Duration& operator-=(Duration o) {
    us_ -= o.us_;
    return *this;
  }
  constexpr auto operator<=>(const Duration&) const = default;

 private:
  constexpr explicit Duration(int64_t us) : us_(us) {}
  int64_t us_ = 0;
};

// A point in time: microseconds since an epoch chosen by the caller.
class Time {
 public:
  constexpr Time() = default;
  static constexpr Time from_us(int64_t us) { return Time(us); }
  static constexpr Time zero() { return Time(0); }
  static constexpr Time never() { return Time(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t us() const { return us_; }
  constexpr double secs() const { return static_cast<double>(us_) / 1e6; }

  constexpr Time operator+(Duration d) const { return Time(us_ + d.us()); }
  constexpr Time operator-(Duration d) const { return Time(us_ - d.us()); }
  constexpr Duration operator-(Time o) const { return Duration::micros(us_ - o.us_); }
  constexpr Time& operator+=(Duration d) {
    us_ += d.us();
    return *this;
  }
  constexpr auto operator<=>(const Time&) const = default;

 private:
  constexpr explicit Time(int64_t us) : us_(us) {}
  int64_t us_ = 0;
};

// A count of bytes.
class Bytes {
 public:
  constexpr Bytes() = default;
  constexpr explicit Bytes(int64_t n) : n_(n) {}
  constexpr int64_t count() const { return n_; }
  constexpr int64_t bits() const { return n_ * 8; }
  constexpr Bytes operator+(Bytes o) const { return Bytes(n_ + o.n_); }
  constexpr Bytes operator-(Bytes o) const { return Bytes(n_ - o.n_); }
  constexpr Bytes operator*(int64_t k) const { return Bytes(n_ * k); }
  constexpr Bytes& operator+=(Bytes o) {
    n_ += o.n_;
    return *this;
  }
  constexpr Bytes& operator-=(Bytes o) {
    n_ -= o.n_;
    return *this;
  }
  constexpr auto operator<=>(const Bytes&) const = default;

 private:
  int64_t n_ = 0;
};

// A data rate in bits per second. Protocols that compute with fractional
// rates (the TFRC equation) keep a double in bytes per second internally and
// convert at their boundary.
class Rate {
 public:
  constexpr Rate() = default;
  static constexpr Rate bps(int64_t bits_per_sec) { return Rate(bits_per_sec); }
  static constexpr Rate kbps(int64_t k) { return Rate(k * 1000); }
  static Rate bytes_per_sec(double bytes_per_s) { return Rate(static_cast<int64_t>(std::llround(bytes_per_s * 8.0))); }
  static constexpr Rate zero() { return Rate(0); }

  constexpr int64_t bits_per_sec() const { return bps_; }
  constexpr double bytes_per_sec() const { return static_cast<double>(bps_) / 8.0; }
  constexpr double kbps_value() const { return static_cast<double>(bps_) / 1e3; }

  constexpr auto operator<=>(const Rate&) const = default;

 private:
  constexpr explicit Rate(int64_t bps) : bps_(bps) {}
  int64_t bps_ = 0;
};

// Time to serialise `b` at rate `r`; infinite when the rate is zero.
inline Duration operator/(Bytes b, Rate r) {
  if (r.bits_per_sec() <= 0) return Duration::infinite();
  return Duration::from_seconds(static_cast<double>(b.bits()) / static_cast<double>(r.bits_per_sec()));
}
inline Bytes operator*(Rate r, Duration d) {
  return Bytes(static_cast<int64_t>(std::llround(r.bytes_per_sec() * d.secs())));
}
inline Rate operator/(Bytes b, Duration d) {
  if (d.us() <= 0) return Rate::zero();
  return Rate::bytes_per_sec(static_cast<double>(b.count()) / d.secs());
}

}  // namespace mantra
