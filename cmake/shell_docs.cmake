# shell_docs.cmake — run as `cmake -DRTPAR=<rtpar> -DOUT=<dir> -P shell_docs.cmake`: writes the
# files `make install` installs from the command's own definitions (src/cli/completion.cpp,
# src/cli/man_page.cpp): OUT/bash-completion/rtpar, OUT/zsh/_rtpar and OUT/man/rtpar.1.
cmake_minimum_required(VERSION 3.25)

# generate(FILE ARGS...): OUT/FILE is what `rtpar ARGS...` prints (written whole or not at all).
function(generate file)
  get_filename_component(dir ${OUT}/${file} DIRECTORY)
  file(MAKE_DIRECTORY ${dir})
  execute_process(COMMAND ${RTPAR} ${ARGN} OUTPUT_FILE ${OUT}/${file}.tmp RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${RTPAR} ${ARGN} failed (${rc})")
  endif()
  file(RENAME ${OUT}/${file}.tmp ${OUT}/${file})
endfunction()

generate(bash-completion/rtpar completion bash)
generate(zsh/_rtpar completion zsh)
generate(man/rtpar.1 man)
