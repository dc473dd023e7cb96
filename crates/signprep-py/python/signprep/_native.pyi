# Type stubs of the Rust extension module (crates/signprep-py/src).
from typing import Any, Dict, Iterator, List, Optional, Tuple

__version__: str
MAX_JOBS: int

class Options:
    def __init__(
        self,
        *,
        dpi: float,
        page_width: Optional[float],
        fields: bool,
        apply_user_unit: bool,
        dialects: str,
        timeout: Optional[float],
        max_file_size: Optional[int],
        data_fields: Optional[List[str]] = None,
        anchor_files: Optional[List[Tuple[str, bytes]]] = None,
        anchor: Optional[List[str]] = None,
        soffice: Optional[str] = None,
        convert_timeout: Optional[float] = None,
        cache_dir: Optional[str] = None,
        no_cache: bool = False,
    ) -> None: ...

class MigrateOptions:
    def __init__(
        self,
        *,
        signers: List[str],
        signers_file: Optional[Tuple[str, bytes]],
        dialects: str,
        map_type: List[str],
        template: bool,
        dpi: float,
        page_width: Optional[float],
        apply_user_unit: bool,
        anchor_files: Optional[List[Tuple[str, bytes]]] = None,
        anchor: Optional[List[str]] = None,
        strip: bool = False,
    ) -> None: ...

class Batch(Iterator[Dict[str, Any]]):
    def __init__(
        self,
        inputs: Iterator[Tuple[Optional[str], Optional[bytes], str]],
        options: Options,
        jobs: int,
        window: Optional[int] = None,
    ) -> None: ...
    @property
    def window(self) -> Optional[int]: ...
    def __iter__(self) -> "Batch": ...
    def __next__(self) -> Dict[str, Any]: ...

def scan_path(path: str, shown: str, options: Options) -> Dict[str, Any]: ...
def scan_bytes(data: bytes, shown: str, options: Options) -> Dict[str, Any]: ...
def check_bytes(
    data: bytes,
    path: str,
    kind: Optional[str],
    max_payload: int,
    templates: List[str],
    template: Optional[str] = None,
    soffice: Optional[str] = None,
    convert_timeout: Optional[float] = None,
    cache_dir: Optional[str] = None,
    no_cache: bool = False,
) -> Dict[str, Any]: ...
def pack_manifest(
    data: bytes,
    path: str,
    seed: Optional[int],
    soffice: Optional[str] = None,
    convert_timeout: Optional[float] = None,
    cache_dir: Optional[str] = None,
    no_cache: bool = False,
) -> Tuple[Optional[Dict[str, Any]], List[Dict[str, Any]], Optional[str]]: ...
def migrate_bytes(
    data: bytes,
    upload: Optional[str],
    name: str,
    options: MigrateOptions,
    format: Optional[str] = None,
    soffice: Optional[str] = None,
    convert_timeout: Optional[float] = None,
    cache_dir: Optional[str] = None,
    no_cache: bool = False,
) -> Dict[str, Any]: ...
def explain(code: str) -> Optional[Dict[str, Any]]: ...
def codes() -> List[str]: ...
def release_converters() -> None: ...
def prepare_templates(paths: List[str], options: Options) -> int: ...
def _scan_timed(path: str, shown: str, options: Options) -> Tuple[int, int, Dict[str, Any]]: ...
