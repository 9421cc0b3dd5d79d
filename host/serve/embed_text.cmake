# cmake -DINPUT=FILE -DOUTPUT=FILE.cpp -DSYMBOL=NAME -DHEADER=H -P embed_text.cmake
# Writes a C++ source defining `const std::string_view zkp::serve::NAME` (declared in the
# header H) with FILE's text, as a raw string literal: how the dashboard page is compiled into
# the binary, so `zkpipe serve` needs no file beside it.
file(READ "${INPUT}" text)
string(FIND "${text}" ")zkp_embed\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} holds the raw string's end marker )zkp_embed\"; it cannot be embedded as it is")
endif()
file(WRITE "${OUTPUT}.tmp"
     "// Generated from ${INPUT} by embed_text.cmake at build time: edit that file, not this one.\n"
     "#include \"${HEADER}\"\n\n"
     "namespace zkp::serve {\n\n"
     "const std::string_view ${SYMBOL} = R\"zkp_embed(${text})zkp_embed\";\n\n"
     "}  // namespace zkp::serve\n")
# Replaced only when it changed, so an unchanged page does not recompile.
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
