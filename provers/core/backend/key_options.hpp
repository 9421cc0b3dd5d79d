// The key options every Groth16 backend shares, as option-table entries (sdk/option_table.hpp),
// so the cpu and cuda provers spell, default, parse and document them the same way:
//   key_check = none | on_curve | subgroup   zkey point checks at key_load
//   params_check = none | on_curve | subgroup bellperson parameter point checks at key_load
//   r1cs      = PATH                         every witness is checked against the circuit
#pragma once

#include <zkpipe/sdk/option_table.hpp>

#include <string>

#include "core/backend/key_files.hpp"

namespace zkp::backend {

inline const char* key_check_name(const KeySettings& k) {
  if (!k.check_points) return "none";
  return k.point_check == PointCheck::subgroup ? "subgroup" : "on_curve";
}

template <class S>
sdk::OptionEntry<S> key_check_option(KeySettings S::*field) {
  auto show = [field](const S& s) { return std::string(key_check_name(s.*field)); };
  auto set = [field](S& s, const std::string& text) {
    KeySettings& k = s.*field;
    if (text == "none") {
      k.check_points = false;
    } else if (text == "on_curve" || text == "subgroup") {
      k.check_points = true;
      k.point_check = text == "subgroup" ? PointCheck::subgroup : PointCheck::on_curve;
    } else {
      return false;
    }
    return true;
  };
  return {"key_check",
          "zkey point checks at key_load (subgroup: a scalar multiplication per point, slow for big keys)",
          "none, on_curve or subgroup", show, set};
}

template <class S>
sdk::OptionEntry<S> params_check_option(KeySettings S::*field) {
  auto show = [field](const S& s) {
    const PointCheck c = (s.*field).params_check;
    return std::string(c == PointCheck::canonical ? "none" : c == PointCheck::on_curve ? "on_curve" : "subgroup");
  };
  auto set = [field](S& s, const std::string& text) {
    PointCheck& c = (s.*field).params_check;
    if (text == "none") c = PointCheck::canonical;
    else if (text == "on_curve") c = PointCheck::on_curve;
    else if (text == "subgroup") c = PointCheck::subgroup;
    else return false;
    return true;
  };
  return {"params_check",
          "bellperson parameter file point checks at key_load: on_curve (the default; 2.6M G1 points/s per "
          "core), subgroup (as bellperson's checked read; a scalar multiplication per point, ~11 core-hours for "
          "a PoRep file), or none (the file is trusted, e.g. checked by its digest: coordinates below q only)",
          "none, on_curve or subgroup", show, set};
}

template <class S>
sdk::OptionEntry<S> r1cs_option(KeySettings S::*field) {
  auto show = [field](const S& s) { return (s.*field).r1cs_path; };
  auto set = [field](S& s, const std::string& text) {
    (s.*field).r1cs_path = text;
    return true;
  };
  return {"r1cs",
          "the circuit's .r1cs: every witness is checked against its constraints in synthesize; every key "
          "loaded must match it",
          "a path, or empty for none", show, set};
}

}  // namespace zkp::backend
