#!/bin/bash

__pushctl_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__pushctl_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__pushctl_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__pushctl_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_pushctl() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=(--lang)
    __pushctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    esac

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    send|report|jwt|key|cert|channel|doctor|mock|demo|check|help)
        # Offer subcommand argument completions
        "_pushctl_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'send report jwt key cert channel doctor mock demo check help' -- "${cur}"))
        ;;
    esac
}

_pushctl_send() {
    repeating_flags=()
    non_repeating_flags=(--no-jwt-cache --content-available --mutable-content --input-push-token --no-lint --sandbox --production --detect-environment --resume --skip-in-doubt --no-collapse-id --follow --force --dry-run --verbose --show-secrets --quiet --version -h --help)
    repeating_options=(--device-token --custom --channel-id --connect-to)
    non_repeating_options=(--key-file --signer --public-key --key-id --team-id --cert --cert-key --cert-password-file --jwt --topic --tokens-file --requests-file --shard --payload --payload-json --title --subtitle --body --badge --sound --category --thread-id --interruption-level --live-activity --timestamp --content-state --stale-date --dismissal-date --relevance-score --attributes-type --attributes --input-push-channel --request-id --push-type --priority --collapse-id --expiration --apns-id --endpoint --port --cacert --proxy --proxy-user-file --concurrency --connections --retries --timeout --unregistered-out --journal --rate --spread --metrics-file --metrics-push --simulator-file --simulator --app --locale --output --lang)
    __pushctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--key-file')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p8|pem)'
        return
        ;;
    '--signer')
        return
        ;;
    '--public-key')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--key-id')
        return
        ;;
    '--team-id')
        return
        ;;
    '--cert')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p12|pfx|pem|crt|cer)'
        return
        ;;
    '--cert-key')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|key)'
        return
        ;;
    '--cert-password-file')
        __pushctl_add_completions -f
        return
        ;;
    '--jwt')
        return
        ;;
    '--topic')
        return
        ;;
    '--device-token')
        return
        ;;
    '--tokens-file')
        __pushctl_add_completions -f
        return
        ;;
    '--requests-file')
        __pushctl_add_completions -o plusdirs -fX '!*.@(jsonl|json)'
        return
        ;;
    '--shard')
        return
        ;;
    '--payload')
        __pushctl_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--payload-json')
        return
        ;;
    '--title')
        return
        ;;
    '--subtitle')
        return
        ;;
    '--body')
        return
        ;;
    '--badge')
        return
        ;;
    '--sound')
        return
        ;;
    '--category')
        return
        ;;
    '--thread-id')
        return
        ;;
    '--interruption-level')
        __pushctl_add_completions -W 'passive'$'\n''active'$'\n''time-sensitive'$'\n''critical'
        return
        ;;
    '--custom')
        return
        ;;
    '--live-activity')
        __pushctl_add_completions -W 'start'$'\n''update'$'\n''end'
        return
        ;;
    '--timestamp')
        return
        ;;
    '--content-state')
        return
        ;;
    '--stale-date')
        return
        ;;
    '--dismissal-date')
        return
        ;;
    '--relevance-score')
        return
        ;;
    '--attributes-type')
        return
        ;;
    '--attributes')
        return
        ;;
    '--input-push-channel')
        return
        ;;
    '--channel-id')
        return
        ;;
    '--request-id')
        return
        ;;
    '--push-type')
        __pushctl_add_completions -W 'alert'$'\n''background'$'\n''location'$'\n''voip'$'\n''complication'$'\n''fileprovider'$'\n''mdm'$'\n''liveactivity'$'\n''pushtotalk'$'\n''widgets'$'\n''controls'
        return
        ;;
    '--priority')
        return
        ;;
    '--collapse-id')
        return
        ;;
    '--expiration')
        return
        ;;
    '--apns-id')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--port')
        return
        ;;
    '--cacert')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--proxy')
        return
        ;;
    '--proxy-user-file')
        __pushctl_add_completions -f
        return
        ;;
    '--connect-to')
        return
        ;;
    '--concurrency')
        return
        ;;
    '--connections')
        return
        ;;
    '--retries')
        return
        ;;
    '--timeout')
        return
        ;;
    '--unregistered-out')
        __pushctl_add_completions -f
        return
        ;;
    '--journal')
        __pushctl_add_completions -o plusdirs -fX '!*.@(jsonl)'
        return
        ;;
    '--rate')
        return
        ;;
    '--spread')
        return
        ;;
    '--metrics-file')
        __pushctl_add_completions -o plusdirs -fX '!*.@(prom)'
        return
        ;;
    '--metrics-push')
        return
        ;;
    '--simulator-file')
        __pushctl_add_completions -o plusdirs -fX '!*.@(apns)'
        return
        ;;
    '--simulator')
        return
        ;;
    '--app')
        __pushctl_add_completions -d
        return
        ;;
    '--locale')
        return
        ;;
    '--output')
        __pushctl_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    esac
}

_pushctl_report() {
    repeating_flags=()
    non_repeating_flags=(--quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--unregistered-out --retry-out --output --lang)
    __pushctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--unregistered-out')
        __pushctl_add_completions -f
        return
        ;;
    '--retry-out')
        __pushctl_add_completions -f
        return
        ;;
    '--output')
        __pushctl_add_completions -W 'text'$'\n''json'
        return
        ;;
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __pushctl_add_completions -o plusdirs -fX '!*.@(jsonl)'
        return
        ;;
    esac
}

_pushctl_jwt() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __pushctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    sign|decode|verify)
        # Offer subcommand argument completions
        "_pushctl_jwt_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'sign decode verify' -- "${cur}"))
        ;;
    esac
}

_pushctl_jwt_sign() {
    repeating_flags=()
    non_repeating_flags=(--explain --cached --version -h --help)
    repeating_options=()
    non_repeating_options=(--key-file --signer --public-key --key-id --team-id --issued-at --output --lang)
    __pushctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--key-file')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p8|pem)'
        return
        ;;
    '--signer')
        return
        ;;
    '--public-key')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--key-id')
        return
        ;;
    '--team-id')
        return
        ;;
    '--issued-at')
        return
        ;;
    '--output')
        __pushctl_add_completions -W 'text'$'\n''json'
        return
        ;;
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    esac
}

_pushctl_jwt_decode() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--lang)
    __pushctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    esac
}

_pushctl_jwt_verify() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--key-file --key-id --lang)
    __pushctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--key-file')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p8|pem)'
        return
        ;;
    '--key-id')
        return
        ;;
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    esac
}

_pushctl_key() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __pushctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    generate)
        # Offer subcommand argument completions
        "_pushctl_key_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'generate' -- "${cur}"))
        ;;
    esac
}

_pushctl_key_generate() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--key-id --out --lang)
    __pushctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--key-id')
        return
        ;;
    '--out')
        __pushctl_add_completions -f
        return
        ;;
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    esac
}

_pushctl_cert() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __pushctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    inspect|generate)
        # Offer subcommand argument completions
        "_pushctl_cert_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'inspect generate' -- "${cur}"))
        ;;
    esac
}

_pushctl_cert_inspect() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--cert-password-file --expires-within --output --lang)
    __pushctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--cert-password-file')
        __pushctl_add_completions -f
        return
        ;;
    '--expires-within')
        return
        ;;
    '--output')
        __pushctl_add_completions -W 'text'$'\n''json'
        return
        ;;
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __pushctl_add_completions -o plusdirs -fX '!*.@(p12|pfx|pem|crt|cer)'
        return
        ;;
    esac
}

_pushctl_cert_generate() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=(--topic)
    non_repeating_options=(--environment --days --valid-from-days --password-file --out --lang)
    __pushctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--topic')
        return
        ;;
    '--environment')
        __pushctl_add_completions -W 'development'$'\n''production'$'\n''both'
        return
        ;;
    '--days')
        return
        ;;
    '--valid-from-days')
        return
        ;;
    '--password-file')
        __pushctl_add_completions -f
        return
        ;;
    '--out')
        __pushctl_add_completions -d
        return
        ;;
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    esac
}

_pushctl_channel() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __pushctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    create|list|read|delete)
        # Offer subcommand argument completions
        "_pushctl_channel_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'create list read delete' -- "${cur}"))
        ;;
    esac
}

_pushctl_channel_create() {
    repeating_flags=()
    non_repeating_flags=(--no-jwt-cache --sandbox --production --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--key-file --signer --public-key --key-id --team-id --cert --cert-key --cert-password-file --jwt --topic --endpoint --cacert --proxy --request-id --timeout --retries --output --lang --storage)
    __pushctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--key-file')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p8|pem)'
        return
        ;;
    '--signer')
        return
        ;;
    '--public-key')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--key-id')
        return
        ;;
    '--team-id')
        return
        ;;
    '--cert')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p12|pfx|pem|crt|cer)'
        return
        ;;
    '--cert-key')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|key)'
        return
        ;;
    '--cert-password-file')
        __pushctl_add_completions -f
        return
        ;;
    '--jwt')
        return
        ;;
    '--topic')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--cacert')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--proxy')
        return
        ;;
    '--request-id')
        return
        ;;
    '--timeout')
        return
        ;;
    '--retries')
        return
        ;;
    '--output')
        __pushctl_add_completions -W 'text'$'\n''json'
        return
        ;;
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    '--storage')
        __pushctl_add_completions -W 'none'$'\n''latest'
        return
        ;;
    esac
}

_pushctl_channel_list() {
    repeating_flags=()
    non_repeating_flags=(--no-jwt-cache --sandbox --production --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--key-file --signer --public-key --key-id --team-id --cert --cert-key --cert-password-file --jwt --topic --endpoint --cacert --proxy --request-id --timeout --retries --output --lang)
    __pushctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--key-file')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p8|pem)'
        return
        ;;
    '--signer')
        return
        ;;
    '--public-key')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--key-id')
        return
        ;;
    '--team-id')
        return
        ;;
    '--cert')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p12|pfx|pem|crt|cer)'
        return
        ;;
    '--cert-key')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|key)'
        return
        ;;
    '--cert-password-file')
        __pushctl_add_completions -f
        return
        ;;
    '--jwt')
        return
        ;;
    '--topic')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--cacert')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--proxy')
        return
        ;;
    '--request-id')
        return
        ;;
    '--timeout')
        return
        ;;
    '--retries')
        return
        ;;
    '--output')
        __pushctl_add_completions -W 'text'$'\n''json'
        return
        ;;
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    esac
}

_pushctl_channel_read() {
    repeating_flags=()
    non_repeating_flags=(--no-jwt-cache --sandbox --production --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--key-file --signer --public-key --key-id --team-id --cert --cert-key --cert-password-file --jwt --topic --endpoint --cacert --proxy --request-id --timeout --retries --output --lang)
    __pushctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--key-file')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p8|pem)'
        return
        ;;
    '--signer')
        return
        ;;
    '--public-key')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--key-id')
        return
        ;;
    '--team-id')
        return
        ;;
    '--cert')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p12|pfx|pem|crt|cer)'
        return
        ;;
    '--cert-key')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|key)'
        return
        ;;
    '--cert-password-file')
        __pushctl_add_completions -f
        return
        ;;
    '--jwt')
        return
        ;;
    '--topic')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--cacert')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--proxy')
        return
        ;;
    '--request-id')
        return
        ;;
    '--timeout')
        return
        ;;
    '--retries')
        return
        ;;
    '--output')
        __pushctl_add_completions -W 'text'$'\n''json'
        return
        ;;
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    esac
}

_pushctl_channel_delete() {
    repeating_flags=()
    non_repeating_flags=(--no-jwt-cache --sandbox --production --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--key-file --signer --public-key --key-id --team-id --cert --cert-key --cert-password-file --jwt --topic --endpoint --cacert --proxy --request-id --timeout --retries --output --lang)
    __pushctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--key-file')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p8|pem)'
        return
        ;;
    '--signer')
        return
        ;;
    '--public-key')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--key-id')
        return
        ;;
    '--team-id')
        return
        ;;
    '--cert')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p12|pfx|pem|crt|cer)'
        return
        ;;
    '--cert-key')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|key)'
        return
        ;;
    '--cert-password-file')
        __pushctl_add_completions -f
        return
        ;;
    '--jwt')
        return
        ;;
    '--topic')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--cacert')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--proxy')
        return
        ;;
    '--request-id')
        return
        ;;
    '--timeout')
        return
        ;;
    '--retries')
        return
        ;;
    '--output')
        __pushctl_add_completions -W 'text'$'\n''json'
        return
        ;;
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    esac
}

_pushctl_doctor() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--key-file --signer --public-key --key-id --team-id --cert --cert-key --cert-password-file --endpoint --cacert --proxy --proxy-user-file --device-token --topic --timeout --output --lang)
    __pushctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--key-file')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p8|pem)'
        return
        ;;
    '--signer')
        return
        ;;
    '--public-key')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--key-id')
        return
        ;;
    '--team-id')
        return
        ;;
    '--cert')
        __pushctl_add_completions -o plusdirs -fX '!*.@(p12|pfx|pem|crt|cer)'
        return
        ;;
    '--cert-key')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|key)'
        return
        ;;
    '--cert-password-file')
        __pushctl_add_completions -f
        return
        ;;
    '--endpoint')
        return
        ;;
    '--cacert')
        __pushctl_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--proxy')
        return
        ;;
    '--proxy-user-file')
        __pushctl_add_completions -f
        return
        ;;
    '--device-token')
        return
        ;;
    '--topic')
        return
        ;;
    '--timeout')
        return
        ;;
    '--output')
        __pushctl_add_completions -W 'text'$'\n''json'
        return
        ;;
    '--lang')
        __pushctl_add_completions -W 'en'$'\n''es'
        return
        ;;
    esac
}

_pushctl_mock() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __pushctl_offer_flags_options -1

    # Offer positional completions
    case "${positional_number}" in
    *)
        __pushctl_add_completions -W "$(__pushctl_custom_complete ---completion mock -- positional@0 "${COMP_CWORD}" "$(__pushctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_pushctl_demo() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __pushctl_offer_flags_options -1

    # Offer positional completions
    case "${positional_number}" in
    *)
        __pushctl_add_completions -W "$(__pushctl_custom_complete ---completion demo -- positional@0 "${COMP_CWORD}" "$(__pushctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_pushctl_check() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __pushctl_offer_flags_options -1

    # Offer positional completions
    case "${positional_number}" in
    *)
        __pushctl_add_completions -W "$(__pushctl_custom_complete ---completion check -- positional@0 "${COMP_CWORD}" "$(__pushctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_pushctl_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __pushctl_offer_flags_options -1
}

complete -o filenames -F _pushctl pushctl
