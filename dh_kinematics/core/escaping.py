# Copyright 2026 The dh_kinematics authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

r"""
Text into YAML, XML and xacro: every string the package writes into such a file comes here.

A name, a URI or a note can come from a file the user did not write (a vendor's URDF, a
topic). Pasted into a document, a line break ends a YAML comment and starts a key, a quote
ends an XML attribute, and ``$(...)`` or ``${...}`` is run by xacro. Each function here
returns text that reads back as exactly the string it was given, and nothing more:

- :func:`yaml_scalar`: a YAML scalar (a key or a value), quoted where it must be;
- :func:`yaml_comment`: a comment on one line, every character that YAML takes as a line
  break (or any other control character) written as its escape, ``\n``;
- :func:`xml_attribute`: a quoted XML attribute value; a character XML 1.0 cannot hold is
  refused;
- :func:`xacro_attribute`: the same for a xacro file, with ``$(`` and ``${`` escaped as
  ``$$(`` and ``$${``, which xacro reads back as the text;
- :func:`printable`: text for a terminal, a control sequence shown as its escape, not run.
"""

import math
import re
from xml.sax.saxutils import quoteattr

_XACRO_SUBSTITUTION = re.compile(r'(\$+)(?=[{(])')
_NOT_XML = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]')


def yaml_scalar(value):
    """Return a str, number or bool as one line of YAML that reads back as ``value``."""
    import yaml

    if isinstance(value, str) and not value.isprintable():
        style = '"'  # double quotes: the one style that escapes line breaks
    else:
        style = None
    text = yaml.safe_dump(value, default_flow_style=True, default_style=style,
                          width=math.inf, allow_unicode=True)
    return text[:-len('\n...\n')] if text.endswith('\n...\n') else text.rstrip('\n')


def _escaped(character):
    return character.encode('unicode_escape').decode('ascii')


def printable(text):
    r"""Return ``text`` with every character that is not printable as its escape (``\x1b``)."""
    text = str(text)
    return text if text.isprintable() else ''.join(
        c if c.isprintable() else _escaped(c) for c in text)


def yaml_comment(text):
    """Return ``text`` as one YAML comment, ``# ...``, without a line break at the end."""
    return '# ' + printable(text)


def xml_attribute(value):
    """
    Return ``value`` as a quoted XML attribute value (quotes, ``&``, ``<`` escaped).

    Raises
    ------
    ValueError
        For a character that XML 1.0 cannot hold (a control character but tab and line breaks).

    """
    value = str(value)
    bad = _NOT_XML.search(value)
    if bad:
        raise ValueError(f'{value!r}: XML cannot hold the character {bad.group()!r}')
    return quoteattr(value, {'\n': '&#10;', '\r': '&#13;', '\t': '&#9;'})


def xacro_attribute(value):
    """Return ``value`` as :func:`xml_attribute` does, for xacro to read back as the text."""
    return xml_attribute(_XACRO_SUBSTITUTION.sub(r'\1$', str(value)))
